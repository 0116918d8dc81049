import CVulkan

/// What the Vulkan backend can do on this machine. The compute backend itself is not built yet: every render
/// runs on the CPU, and asking for Vulkan explicitly is an error.
public enum VulkanStatus {
    public static let unavailableReason = "the Vulkan backend is not available in this build"

    /// Names of the physical devices the loader reports (for `--explain`), or nil when no instance can be made.
    public static func deviceNames() -> [String]? {
        var info = VkInstanceCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
        var instance: VkInstance?
        guard vkCreateInstance(&info, nil, &instance) == VK_SUCCESS, let instance else { return nil }
        defer { vkDestroyInstance(instance, nil) }
        var count: UInt32 = 0
        vkEnumeratePhysicalDevices(instance, &count, nil)
        var devices = [VkPhysicalDevice?](repeating: nil, count: Int(count))
        vkEnumeratePhysicalDevices(instance, &count, &devices)
        return devices.compactMap { device in
            guard let device else { return nil }
            var properties = VkPhysicalDeviceProperties()
            vkGetPhysicalDeviceProperties(device, &properties)
            return withUnsafeBytes(of: properties.deviceName) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        }
    }
}
