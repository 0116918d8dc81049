import CVulkan
import Foundation
import Synchronization

/// Khronos validation, on when `FILTERRUN_VULKAN_VALIDATION` is set (`1`: core and synchronization validation;
/// `best-practices`: those and the best-practices checks; `gpu-assisted`: core validation with every shader
/// instrumented to check its own buffer accesses on the device). Every message the layer reports is printed to stderr
/// and kept, so the test suite (scripts/test.sh sets the variable) fails on any.
package enum VulkanValidation {
    static let layer = "VK_LAYER_KHRONOS_validation"
    static let setting = ProcessInfo.processInfo.environment["FILTERRUN_VULKAN_VALIDATION"].flatMap { $0.isEmpty ? nil : $0 }
    package static var isEnabled: Bool { setting != nil }
    /// GPU-assisted validation checks buffer bounds only where robustBufferAccess is off, so it runs without it.
    package static var isGPUAssisted: Bool { setting == "gpu-assisted" }
    private static let messages = Mutex<[String]>([])

    /// The messages reported since the last call, removed.
    package static func drain() -> [String] { messages.withLock { list in defer { list = [] }; return list } }

    static func record(_ text: String) {
        FileHandle.standardError.write(Data("vulkan validation: \(text)\n".utf8))
        messages.withLock { $0.append(text) }
    }

    /// The validation features to enable, as the layer's VkValidationFeaturesEXT takes them.
    static var enables: [VkValidationFeatureEnableEXT] {
        switch setting {
        case "gpu-assisted": return [VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT]
        case "best-practices": return [VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT,
                                       VK_VALIDATION_FEATURE_ENABLE_BEST_PRACTICES_EXT]
        default: return [VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT]
        }
    }

    /// The one message that says nothing about the product: enabling VK_EXT_debug_utils, which validation needs.
    static let ignoredMessage = "UNASSIGNED-BestPractices-vkCreateInstance-specialuse-extension-debugging"

    /// Called by the layer for each message (warnings and errors: see `messenger`).
    static let callback: PFN_vkDebugUtilsMessengerCallbackEXT = { severity, _, data, _ in
        // Best practices flags the debug-utils extension itself, which exists only to receive these messages.
        if let id = data?.pointee.pMessageIdName, String(cString: id) == ignoredMessage { return VkBool32(VK_FALSE) }
        let text = data?.pointee.pMessage.map { String(cString: $0) } ?? "(no message)"
        let level = severity.rawValue >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT.rawValue ? "error" : "warning"
        VulkanValidation.record("\(level): \(text)")
        return VkBool32(VK_FALSE)
    }

    /// The messenger's description: warnings and errors from validation and performance checks (general messages
    /// are the loader's about the machine, such as a driver manifest it cannot open).
    static func messengerInfo() -> VkDebugUtilsMessengerCreateInfoEXT {
        var info = VkDebugUtilsMessengerCreateInfoEXT()
        info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT
        info.messageSeverity = UInt32(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT.rawValue
                                      | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT.rawValue)
        info.messageType = UInt32(VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT.rawValue
                                  | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT.rawValue)
        info.pfnUserCallback = callback
        return info
    }
}
