import CVulkan
import Foundation

/// The Vulkan loader, opened at run time rather than linked, so that filterrun starts (and renders on the CPU) on a
/// machine without libvulkan.so.1. `FILTERRUN_VULKAN_LOADER` names another loader library (tests use a missing one).
enum VulkanLoader {
    static let path = ProcessInfo.processInfo.environment["FILTERRUN_VULKAN_LOADER"] ?? "libvulkan.so.1"
    static let library: UnsafeMutableRawPointer? = dlopen(path, RTLD_NOW | RTLD_LOCAL)
    static let getInstanceProcAddress: PFN_vkGetInstanceProcAddr? = library
        .flatMap { dlsym($0, "vkGetInstanceProcAddr") }
        .map { unsafeBitCast($0, to: PFN_vkGetInstanceProcAddr.self) }

    /// The process's instance once made: instance and device functions are looked up through it.
    nonisolated(unsafe) static var instance: VkInstance?

    /// The entry point `name`, looked up once on first use (after the instance exists, except vkCreateInstance).
    static func function<T>(_ name: String) -> T {
        guard let lookup = getInstanceProcAddress, let pointer = lookup(instance, name) else {
            fatalError("the Vulkan loader has no \(name)")
        }
        return unsafeBitCast(pointer, to: T.self)
    }
}

// Every entry point the backend calls, under its C name, so call sites read as plain Vulkan. Globals are initialised
// lazily on first use; each is used only after the instance exists (vkCreateInstance is a global command).
let vkAllocateCommandBuffers: PFN_vkAllocateCommandBuffers = VulkanLoader.function("vkAllocateCommandBuffers")
let vkAllocateDescriptorSets: PFN_vkAllocateDescriptorSets = VulkanLoader.function("vkAllocateDescriptorSets")
let vkAllocateMemory: PFN_vkAllocateMemory = VulkanLoader.function("vkAllocateMemory")
let vkBeginCommandBuffer: PFN_vkBeginCommandBuffer = VulkanLoader.function("vkBeginCommandBuffer")
let vkBindBufferMemory: PFN_vkBindBufferMemory = VulkanLoader.function("vkBindBufferMemory")
let vkCmdBindDescriptorSets: PFN_vkCmdBindDescriptorSets = VulkanLoader.function("vkCmdBindDescriptorSets")
let vkCmdBindPipeline: PFN_vkCmdBindPipeline = VulkanLoader.function("vkCmdBindPipeline")
let vkCmdCopyBuffer: PFN_vkCmdCopyBuffer = VulkanLoader.function("vkCmdCopyBuffer")
let vkCmdDispatch: PFN_vkCmdDispatch = VulkanLoader.function("vkCmdDispatch")
let vkCmdPipelineBarrier: PFN_vkCmdPipelineBarrier = VulkanLoader.function("vkCmdPipelineBarrier")
let vkCmdPushConstants: PFN_vkCmdPushConstants = VulkanLoader.function("vkCmdPushConstants")
let vkCmdResetQueryPool: PFN_vkCmdResetQueryPool = VulkanLoader.function("vkCmdResetQueryPool")
let vkCmdWriteTimestamp: PFN_vkCmdWriteTimestamp = VulkanLoader.function("vkCmdWriteTimestamp")
let vkCreateBuffer: PFN_vkCreateBuffer = VulkanLoader.function("vkCreateBuffer")
let vkCreateCommandPool: PFN_vkCreateCommandPool = VulkanLoader.function("vkCreateCommandPool")
let vkCreateComputePipelines: PFN_vkCreateComputePipelines = VulkanLoader.function("vkCreateComputePipelines")
let vkCreateDescriptorPool: PFN_vkCreateDescriptorPool = VulkanLoader.function("vkCreateDescriptorPool")
let vkCreateDescriptorSetLayout: PFN_vkCreateDescriptorSetLayout = VulkanLoader.function("vkCreateDescriptorSetLayout")
let vkCreateDevice: PFN_vkCreateDevice = VulkanLoader.function("vkCreateDevice")
let vkCreateFence: PFN_vkCreateFence = VulkanLoader.function("vkCreateFence")
let vkCreateInstance: PFN_vkCreateInstance = VulkanLoader.function("vkCreateInstance")
let vkCreatePipelineLayout: PFN_vkCreatePipelineLayout = VulkanLoader.function("vkCreatePipelineLayout")
let vkCreatePipelineCache: PFN_vkCreatePipelineCache = VulkanLoader.function("vkCreatePipelineCache")
let vkDestroyPipelineCache: PFN_vkDestroyPipelineCache = VulkanLoader.function("vkDestroyPipelineCache")
let vkGetPipelineCacheData: PFN_vkGetPipelineCacheData = VulkanLoader.function("vkGetPipelineCacheData")
let vkCreateQueryPool: PFN_vkCreateQueryPool = VulkanLoader.function("vkCreateQueryPool")
let vkCreateShaderModule: PFN_vkCreateShaderModule = VulkanLoader.function("vkCreateShaderModule")
let vkDestroyBuffer: PFN_vkDestroyBuffer = VulkanLoader.function("vkDestroyBuffer")
let vkDestroyCommandPool: PFN_vkDestroyCommandPool = VulkanLoader.function("vkDestroyCommandPool")
let vkDestroyDescriptorPool: PFN_vkDestroyDescriptorPool = VulkanLoader.function("vkDestroyDescriptorPool")
let vkDestroyFence: PFN_vkDestroyFence = VulkanLoader.function("vkDestroyFence")
let vkDestroyInstance: PFN_vkDestroyInstance = VulkanLoader.function("vkDestroyInstance")
let vkDestroyPipeline: PFN_vkDestroyPipeline = VulkanLoader.function("vkDestroyPipeline")
let vkDestroyQueryPool: PFN_vkDestroyQueryPool = VulkanLoader.function("vkDestroyQueryPool")
let vkDestroyShaderModule: PFN_vkDestroyShaderModule = VulkanLoader.function("vkDestroyShaderModule")
let vkEndCommandBuffer: PFN_vkEndCommandBuffer = VulkanLoader.function("vkEndCommandBuffer")
let vkEnumeratePhysicalDevices: PFN_vkEnumeratePhysicalDevices = VulkanLoader.function("vkEnumeratePhysicalDevices")
let vkEnumerateInstanceLayerProperties: PFN_vkEnumerateInstanceLayerProperties
    = VulkanLoader.function("vkEnumerateInstanceLayerProperties")
let vkEnumerateInstanceExtensionProperties: PFN_vkEnumerateInstanceExtensionProperties
    = VulkanLoader.function("vkEnumerateInstanceExtensionProperties")
let vkEnumerateDeviceExtensionProperties: PFN_vkEnumerateDeviceExtensionProperties
    = VulkanLoader.function("vkEnumerateDeviceExtensionProperties")
let vkFreeMemory: PFN_vkFreeMemory = VulkanLoader.function("vkFreeMemory")
let vkGetBufferMemoryRequirements: PFN_vkGetBufferMemoryRequirements = VulkanLoader.function("vkGetBufferMemoryRequirements")
let vkGetDeviceQueue: PFN_vkGetDeviceQueue = VulkanLoader.function("vkGetDeviceQueue")
let vkGetPhysicalDeviceFeatures: PFN_vkGetPhysicalDeviceFeatures = VulkanLoader.function("vkGetPhysicalDeviceFeatures")
let vkGetPhysicalDeviceFeatures2: PFN_vkGetPhysicalDeviceFeatures2 = VulkanLoader.function("vkGetPhysicalDeviceFeatures2")
let vkGetPhysicalDeviceMemoryProperties: PFN_vkGetPhysicalDeviceMemoryProperties = VulkanLoader.function("vkGetPhysicalDeviceMemoryProperties")
let vkGetPhysicalDeviceMemoryProperties2: PFN_vkGetPhysicalDeviceMemoryProperties2 = VulkanLoader.function("vkGetPhysicalDeviceMemoryProperties2")
let vkGetPhysicalDeviceProperties: PFN_vkGetPhysicalDeviceProperties = VulkanLoader.function("vkGetPhysicalDeviceProperties")
let vkGetPhysicalDeviceProperties2: PFN_vkGetPhysicalDeviceProperties2 = VulkanLoader.function("vkGetPhysicalDeviceProperties2")
let vkGetPhysicalDeviceQueueFamilyProperties: PFN_vkGetPhysicalDeviceQueueFamilyProperties = VulkanLoader.function("vkGetPhysicalDeviceQueueFamilyProperties")
let vkGetQueryPoolResults: PFN_vkGetQueryPoolResults = VulkanLoader.function("vkGetQueryPoolResults")
let vkMapMemory: PFN_vkMapMemory = VulkanLoader.function("vkMapMemory")
let vkInvalidateMappedMemoryRanges: PFN_vkInvalidateMappedMemoryRanges = VulkanLoader.function("vkInvalidateMappedMemoryRanges")
let vkQueueSubmit: PFN_vkQueueSubmit = VulkanLoader.function("vkQueueSubmit")
let vkUpdateDescriptorSets: PFN_vkUpdateDescriptorSets = VulkanLoader.function("vkUpdateDescriptorSets")
let vkWaitForFences: PFN_vkWaitForFences = VulkanLoader.function("vkWaitForFences")
