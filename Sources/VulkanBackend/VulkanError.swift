import CVulkan

/// Why the Vulkan backend cannot run or a render on it failed.
package struct VulkanError: Error, CustomStringConvertible, Sendable {
    package enum Kind: Sendable {
        /// No loader, no device, or no device matching `FILTERRUN_DEVICE`.
        case unavailable
        /// The image does not fit the device's buffer or memory limits.
        case tooLarge
        /// A Vulkan call failed (allocation, lost device, ...).
        case failed
        /// A shader did not compile (a bug in the product, reported with glslang's log).
        case shader
    }

    package let kind: Kind
    package let message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}

/// Throws unless `result` is VK_SUCCESS, naming the call.
func check(_ result: VkResult, _ call: String) throws {
    guard result == VK_SUCCESS else { throw VulkanError(.failed, "\(call) failed: \(resultName(result))") }
}

func resultName(_ result: VkResult) -> String {
    switch result {
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "out of host memory"
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "out of device memory"
    case VK_ERROR_DEVICE_LOST: return "device lost"
    case VK_ERROR_INITIALIZATION_FAILED: return "initialization failed"
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "incompatible driver"
    case VK_ERROR_TOO_MANY_OBJECTS: return "too many objects"
    case VK_TIMEOUT: return "timeout"
    default: return "VkResult \(result.rawValue)"
    }
}
