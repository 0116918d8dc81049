import CVulkan
import FilterCore
import Foundation

/// The Vulkan instance, the chosen device and its queue, created once per process and shared by every render.
/// Device choice: discrete > integrated > virtual > CPU, or `FILTERRUN_DEVICE=<index or name substring>`.
package final class VulkanContext: @unchecked Sendable {
    package let deviceName: String
    package let driverName: String
    package let deviceType: String
    /// True for a software implementation (lavapipe): `auto` prefers the CPU backend over it.
    package let isSoftware: Bool
    package let limits: DeviceLimits
    /// Every device the loader reports, by index, for `--explain`.
    package let allDevices: [String]

    let instance: VkInstance
    let physicalDevice: VkPhysicalDevice
    let device: VkDevice
    let queue: VkQueue
    let queueFamily: UInt32
    let memoryProperties: VkPhysicalDeviceMemoryProperties
    /// Serialises queue submission and the caches below.
    let lock = NSLock()
    var pipelines: [UInt64: VkPipeline] = [:]
    /// The driver's pipeline cache, kept on disk (PipelineCache.swift).
    private(set) var pipelineCache: PipelineCache!
    private(set) var kernelLayout: KernelLayout!
    private(set) var tables: DeviceBuffer!
    let staging = StagingPool()
    /// Bytes allocated in each heap, against the device budget and the host heaps' sizes.
    var heapLedger: HeapLedger
    /// The blocks small buffers are carved from (MemoryPool.swift).
    var memoryBlocks: [MemoryBlock] = []
    /// Set when the driver reported the device lost: nothing recorded for it runs again, so the context is retired.
    private var lost = false
    /// Test hook (`FILTERRUN_VULKAN_SIMULATE_DEVICE_LOSS=N`): the Nth submit of the process, and every one after it,
    /// reports the device lost (1: the first, the conversion tables' upload; a larger N, part way through a render).
    private let simulatedLossAt = Int(ProcessInfo.processInfo.environment["FILTERRUN_VULKAN_SIMULATE_DEVICE_LOSS"] ?? "") ?? 0
    private var submitsMade = 0
    /// Counts a submit; true where the test hook says this one finds the device lost.
    var simulateDeviceLoss: Bool {
        guard simulatedLossAt > 0 else { return false }
        return lock.withLock {
            submitsMade += 1
            return submitsMade >= simulatedLossAt
        }
    }
    /// Test hook (`FILTERRUN_VULKAN_NONCOHERENT_READBACK=1`): readback memory is treated as not host-coherent, so
    /// its invalidation runs on devices (lavapipe) whose host-visible memory is all coherent.
    let simulateNonCoherentReadback = ProcessInfo.processInfo.environment["FILTERRUN_VULKAN_NONCOHERENT_READBACK"] == "1"
    /// Test hook (`FILTERRUN_VULKAN_DISCRETE=1`, or set by a test): device-local buffers are not mapped and host
    /// memory counts as apart from the device's, so the paths of a discrete GPU (staged uploads, results packed in
    /// device memory and copied across) run on unified memory (lavapipe). Buffers made earlier keep their mapping.
    package var simulatesDiscreteMemory = ProcessInfo.processInfo.environment["FILTERRUN_VULKAN_DISCRETE"] == "1"
    let memoryBudget: Int
    /// Pixel-taps recorded into one submit before it is sent and waited on (`FILTERRUN_VULKAN_SUBMIT_WORK` for
    /// tests). Drivers end submits that run for seconds (desktop watchdogs ~2 s, amdgpu ~10 s); the default is
    /// about a tenth of a second on a small integrated GPU (~10¹¹ pixel-taps/s), so even a slow one stays far inside.
    package let submitWork: Double
    /// True when robustBufferAccess is on (under validation, where the device offers it).
    package let robustBufferAccess: Bool
    package static let defaultSubmitWork = 1e10

    /// The process's context, made on first use; the error says why there is none.
    /// After a device loss it refuses, so `auto` renders on the CPU (one warning) and `vulkan` fails clearly
    /// instead of every later render failing on the lost device.
    package static func shared() throws -> VulkanContext {
        let context = try sharedResult.get()
        if context.isLost {
            throw VulkanError(.unavailable, "the Vulkan device \(context.deviceName) was lost earlier in this process (the "
                + "driver reset it); Vulkan stays off until the process restarts")
        }
        return context
    }

    /// Whether this process has tried to open its context already (so opening costs it nothing more): `auto`'s
    /// price for the device leaves the opening out then.
    package static var isOpen: Bool { openLock.withLock { opened } }
    private static let openLock = NSLock()
    nonisolated(unsafe) private static var opened = false

    package var isLost: Bool { lock.withLock { lost } }
    func markLost() { lock.withLock { lost = true } }
    private static let sharedResult: Result<VulkanContext, VulkanError> = {
        defer { openLock.withLock { opened = true } }
        do { return .success(try VulkanContext(selection: ProcessInfo.processInfo.environment["FILTERRUN_DEVICE"])) }
        catch let error as VulkanError { return .failure(error) }
        catch { return .failure(VulkanError(.unavailable, "\(error)")) }
    }()

    init(selection: String?) throws {
        guard VulkanLoader.getInstanceProcAddress != nil else {
            throw VulkanError(.unavailable, "no Vulkan loader (\(VulkanLoader.path) could not be opened)")
        }
        var app = VkApplicationInfo()
        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
        app.apiVersion = (1 << 22) | (2 << 12)  // Vulkan 1.2
        var info = VkInstanceCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
        var created: VkInstance?
        let validate = VulkanValidation.isEnabled
        if validate && !Self.hasLayer(VulkanValidation.layer) {
            throw VulkanError(.unavailable, "FILTERRUN_VULKAN_VALIDATION is set but \(VulkanValidation.layer) is not installed "
                + "(Debian: vulkan-validationlayers)")
        }
        // Layer and extension names, validation features and the messenger (which also hears instance creation),
        // all alive until vkCreateInstance returns. Portability enumeration lists devices that implement Vulkan
        // over another API (MoltenVK); without it the loader hides them.
        var extensionNames: [String] = validate ? ["VK_EXT_debug_utils"] : []
        if Self.instanceExtensions().contains("VK_KHR_portability_enumeration") {
            extensionNames.append("VK_KHR_portability_enumeration")
            info.flags |= UInt32(VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR.rawValue)
        }
        let layerName = strdup(VulkanValidation.layer)
        let extensionStrings = extensionNames.map { strdup($0) }
        defer { SwiftGlibc.free(layerName); extensionStrings.forEach { SwiftGlibc.free($0) } }
        var layers: [UnsafePointer<CChar>?] = [UnsafePointer(layerName)]
        var extensions: [UnsafePointer<CChar>?] = extensionStrings.map { UnsafePointer($0) }
        var enables = VulkanValidation.enables
        var messenger = VulkanValidation.messengerInfo()
        var features = VkValidationFeaturesEXT()
        features.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT
        features.enabledValidationFeatureCount = UInt32(enables.count)
        let result = withUnsafePointer(to: &app) { appPointer in
            info.pApplicationInfo = appPointer
            return extensions.withUnsafeMutableBufferPointer { extensions in
                info.enabledExtensionCount = UInt32(extensions.count)
                info.ppEnabledExtensionNames = extensions.isEmpty ? nil : UnsafePointer(extensions.baseAddress)
                guard validate else { return vkCreateInstance(&info, nil, &created) }
                return layers.withUnsafeMutableBufferPointer { layers in
                    enables.withUnsafeMutableBufferPointer { enables in
                        withUnsafeMutablePointer(to: &messenger) { messenger in
                            withUnsafeMutablePointer(to: &features) { features in
                                features.pointee.pEnabledValidationFeatures = UnsafePointer(enables.baseAddress)
                                features.pointee.pNext = UnsafeRawPointer(messenger)
                                info.pNext = UnsafeRawPointer(features)
                                info.enabledLayerCount = 1
                                info.ppEnabledLayerNames = UnsafePointer(layers.baseAddress)
                                return vkCreateInstance(&info, nil, &created)
                            }
                        }
                    }
                }
            }
        }
        guard result == VK_SUCCESS, let created else {
            throw VulkanError(.unavailable, "no Vulkan instance could be created (\(resultName(result)))")
        }
        instance = created
        VulkanLoader.instance = created
        var debugMessenger: VkDebugUtilsMessengerEXT?
        if validate {
            let create: PFN_vkCreateDebugUtilsMessengerEXT = VulkanLoader.function("vkCreateDebugUtilsMessengerEXT")
            var messengerInfo = VulkanValidation.messengerInfo()
            _ = create(created, &messengerInfo, nil, &debugMessenger)  // lives as long as the process's instance
        }
        /// Gives the instance back (and its messenger first, as the spec asks) when no device can be used.
        func destroyInstance() {
            if let debugMessenger {
                let destroy: PFN_vkDestroyDebugUtilsMessengerEXT = VulkanLoader.function("vkDestroyDebugUtilsMessengerEXT")
                destroy(created, debugMessenger, nil)
            }
            vkDestroyInstance(created, nil)
        }
        let candidates = Self.physicalDevices(instance)
        allDevices = candidates.enumerated().map { "\($0): \($1.name) (\($1.typeName))" }
        guard let chosen = try Self.choose(candidates, selection: selection) else {
            destroyInstance()
            throw VulkanError(.unavailable, "no Vulkan device with a compute queue")
        }
        physicalDevice = chosen.handle
        deviceName = chosen.name
        deviceType = chosen.typeName
        isSoftware = chosen.type == VK_PHYSICAL_DEVICE_TYPE_CPU
        queueFamily = chosen.computeFamily
        let extended = Self.extendedProperties(chosen.handle)
        driverName = extended.driver ?? "unknown driver"
        var memory = VkPhysicalDeviceMemoryProperties()
        vkGetPhysicalDeviceMemoryProperties(physicalDevice, &memory)
        memoryProperties = memory
        let (storage8, storage16) = Self.storageFeatures(physicalDevice)
        var limits = DeviceLimits(chosen.properties, memory: memory, storage8Bit: storage8, storage16Bit: storage16,
                                  timestamps: chosen.timestampBits > 0, maxAllocation: extended.maxAllocation)
        // Artificially small limits, so tests can exercise what happens on devices with little memory.
        if let cap = EnvironmentSettings.lenient("FILTERRUN_VULKAN_MAX_BUFFER") {
            limits.maxStorageBufferRange = min(limits.maxStorageBufferRange, cap)
        }
        if let cap = EnvironmentSettings.lenient("FILTERRUN_VULKAN_MAX_BINDINGS") {
            limits.maxStorageBuffersPerStage = min(limits.maxStorageBuffersPerStage, cap)
        }
        if let problem = limits.shortfall(bindings: KernelLayout.bindings) {
            destroyInstance()
            throw VulkanError(.unavailable, "the Vulkan device \(chosen.name) cannot run FilterRecipe's kernels: \(problem)")
        }
        let offered = Self.deviceExtensions(chosen.handle)
        limits.deviceLocalBudgetBytes = offered.contains("VK_EXT_memory_budget") ? Self.deviceLocalBudget(chosen.handle) : nil
        self.limits = limits
        memoryBudget = EnvironmentSettings.lenient("FILTERRUN_VULKAN_MEMORY_LIMIT")
            ?? limits.deviceLocalBudgetBytes ?? limits.deviceLocalHeapBytes
        heapLedger = HeapLedger(heaps: withUnsafeBytes(of: memory.memoryHeaps) { raw in
            raw.bindMemory(to: VkMemoryHeap.self).prefix(Int(memory.memoryHeapCount)).map { heap in
                HeapLedger.Heap(size: Int(heap.size), deviceLocal: heap.flags & UInt32(VK_MEMORY_HEAP_DEVICE_LOCAL_BIT.rawValue) != 0)
            }
        }, deviceBudget: memoryBudget)
        submitWork = EnvironmentSettings.lenient("FILTERRUN_VULKAN_SUBMIT_WORK").map(Double.init) ?? Self.defaultSubmitWork

        var priority: Float = 1
        var queueInfo = VkDeviceQueueCreateInfo()
        queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
        queueInfo.queueFamilyIndex = queueFamily
        queueInfo.queueCount = 1
        var deviceInfo = VkDeviceCreateInfo()
        deviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO
        deviceInfo.queueCreateInfoCount = 1
        var madeDevice: VkDevice?
        let physical = chosen.handle
        // A device implementing Vulkan over another API must have its portability subset enabled (the spec's rule).
        let deviceExtensionStrings = offered.contains("VK_KHR_portability_subset")
            ? [strdup("VK_KHR_portability_subset")] : []
        defer { deviceExtensionStrings.forEach { SwiftGlibc.free($0) } }
        var deviceExtensions: [UnsafePointer<CChar>?] = deviceExtensionStrings.map { UnsafePointer($0) }
        // Under validation (the tests) out-of-bounds reads and writes are made defined, as robustBufferAccess does
        // on every driver, so a kernel's bounds bug cannot pass on one device and corrupt memory on another; under
        // GPU-assisted validation it stays off, so the instrumented kernels report any such access instead.
        var supported = VkPhysicalDeviceFeatures()
        vkGetPhysicalDeviceFeatures(physical, &supported)
        var enabledFeatures = VkPhysicalDeviceFeatures()
        robustBufferAccess = validate && !VulkanValidation.isGPUAssisted && supported.robustBufferAccess == VkBool32(VK_TRUE)
        enabledFeatures.robustBufferAccess = robustBufferAccess ? VkBool32(VK_TRUE) : VkBool32(VK_FALSE)
        let deviceResult = withUnsafePointer(to: &priority) { priorityPointer in
            queueInfo.pQueuePriorities = priorityPointer
            return withUnsafePointer(to: &queueInfo) { queuePointer in
                deviceInfo.pQueueCreateInfos = queuePointer
                return withUnsafePointer(to: &enabledFeatures) { features in
                    deviceInfo.pEnabledFeatures = features
                    return deviceExtensions.withUnsafeMutableBufferPointer { names in
                        deviceInfo.enabledExtensionCount = UInt32(names.count)
                        deviceInfo.ppEnabledExtensionNames = names.isEmpty ? nil : UnsafePointer(names.baseAddress)
                        return vkCreateDevice(physical, &deviceInfo, nil, &madeDevice)
                    }
                }
            }
        }
        guard deviceResult == VK_SUCCESS, let madeDevice else {
            destroyInstance()
            throw VulkanError(.unavailable, "the Vulkan device \(chosen.name) could not be opened (\(resultName(deviceResult)))")
        }
        device = madeDevice
        var madeQueue: VkQueue?
        vkGetDeviceQueue(device, queueFamily, 0, &madeQueue)
        queue = madeQueue!
        kernelLayout = try KernelLayout(device: device)
        pipelineCache = PipelineCache(device: device, uuid: withUnsafeBytes(of: chosen.properties.pipelineCacheUUID) { Array($0) })
        tables = try ConversionTables.upload(to: self)
    }

    /// One line naming the device and driver, for `--explain` and benchmarks.
    package var description: String { "\(deviceName) (\(deviceType), \(driverName))" }

    /// The budget VK_EXT_memory_budget gives for the largest device-local heap (the device must offer it).
    static func deviceLocalBudget(_ device: VkPhysicalDevice) -> Int? {
        var budget = VkPhysicalDeviceMemoryBudgetPropertiesEXT()
        budget.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT
        var properties = VkPhysicalDeviceMemoryProperties2()
        properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2
        withUnsafeMutablePointer(to: &budget) { pointer in
            properties.pNext = UnsafeMutableRawPointer(pointer)
            vkGetPhysicalDeviceMemoryProperties2(device, &properties)
        }
        let memory = properties.memoryProperties
        var chosen: (size: Int, budget: Int)?
        withUnsafeBytes(of: memory.memoryHeaps) { raw in
            let heaps = raw.bindMemory(to: VkMemoryHeap.self)
            withUnsafeBytes(of: budget.heapBudget) { raw in
                let budgets = raw.bindMemory(to: VkDeviceSize.self)
                for i in 0..<Int(memory.memoryHeapCount)
                where heaps[i].flags & UInt32(VK_MEMORY_HEAP_DEVICE_LOCAL_BIT.rawValue) != 0 && Int(heaps[i].size) > (chosen?.size ?? -1) {
                    chosen = (Int(heaps[i].size), Int(budgets[i]))
                }
            }
        }
        return chosen.flatMap { $0.budget > 0 ? $0.budget : nil }
    }

    /// The instance extensions the loader offers.
    static func instanceExtensions() -> Set<String> {
        extensionNames { vkEnumerateInstanceExtensionProperties(nil, $0, $1) }
    }

    /// The extensions a device offers.
    static func deviceExtensions(_ device: VkPhysicalDevice) -> Set<String> {
        extensionNames { vkEnumerateDeviceExtensionProperties(device, nil, $0, $1) }
    }

    /// The names an extension enumeration reports (count first, then the list, as every vkEnumerate… works).
    static func extensionNames(_ enumerate: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<VkExtensionProperties>?) -> VkResult)
        -> Set<String> {
        var count: UInt32 = 0
        guard enumerate(&count, nil) == VK_SUCCESS, count > 0 else { return [] }
        var properties = [VkExtensionProperties](repeating: VkExtensionProperties(), count: Int(count))
        guard properties.withUnsafeMutableBufferPointer({ enumerate(&count, $0.baseAddress) }) == VK_SUCCESS else { return [] }
        return Set(properties.prefix(Int(count)).map { Self.name(of: $0) })
    }

    static func name(of extension: VkExtensionProperties) -> String {
        withUnsafeBytes(of: `extension`.extensionName) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
    }

    static func hasLayer(_ name: String) -> Bool {
        var count: UInt32 = 0
        guard vkEnumerateInstanceLayerProperties(&count, nil) == VK_SUCCESS, count > 0 else { return false }
        var properties = [VkLayerProperties](repeating: VkLayerProperties(), count: Int(count))
        guard vkEnumerateInstanceLayerProperties(&count, &properties) == VK_SUCCESS else { return false }
        return properties.prefix(Int(count)).contains { layer in
            withUnsafeBytes(of: layer.layerName) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) } == name
        }
    }

    // MARK: - Device choice

    struct Candidate {
        let handle: VkPhysicalDevice
        let properties: VkPhysicalDeviceProperties
        let name: String
        let type: VkPhysicalDeviceType
        let computeFamily: UInt32
        let timestampBits: UInt32

        var typeName: String {
            switch type {
            case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU"
            case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU"
            case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU"
            case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU"
            default: return "other"
            }
        }

        var rank: Int {
            switch type {
            case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0
            case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1
            case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2
            case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3
            default: return 4
            }
        }
    }

    static func physicalDevices(_ instance: VkInstance) -> [Candidate] {
        var count: UInt32 = 0
        _ = vkEnumeratePhysicalDevices(instance, &count, nil)
        var handles = [VkPhysicalDevice?](repeating: nil, count: Int(count))
        _ = vkEnumeratePhysicalDevices(instance, &count, &handles)
        return handles.prefix(Int(count)).compactMap { handle -> Candidate? in
            guard let handle else { return nil }
            var properties = VkPhysicalDeviceProperties()
            vkGetPhysicalDeviceProperties(handle, &properties)
            let name = withUnsafeBytes(of: properties.deviceName) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            var familyCount: UInt32 = 0
            vkGetPhysicalDeviceQueueFamilyProperties(handle, &familyCount, nil)
            var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(familyCount))
            vkGetPhysicalDeviceQueueFamilyProperties(handle, &familyCount, &families)
            guard let family = families.firstIndex(where: { $0.queueFlags & UInt32(VK_QUEUE_COMPUTE_BIT.rawValue) != 0 })
            else { return nil }
            return Candidate(handle: handle, properties: properties, name: name, type: properties.deviceType,
                             computeFamily: UInt32(family), timestampBits: families[family].timestampValidBits)
        }
    }

    /// The device `selection` names (an index into the loader's list or a case-insensitive name substring), or the
    /// best ranked one.
    /// Kernels are SPIR-V 1.3, which needs Vulkan 1.1 (and vkGetPhysicalDeviceProperties2 is 1.1 core).
    static let minimumAPIVersion: UInt32 = (1 << 22) | (1 << 12)

    static func choose(_ candidates: [Candidate], selection: String?) throws -> Candidate? {
        let usable = candidates.filter { $0.properties.apiVersion >= minimumAPIVersion }
        if usable.isEmpty, let old = candidates.first {
            throw VulkanError(.unavailable, "the Vulkan device \(old.name) supports only Vulkan "
                + "\(old.properties.apiVersion >> 22).\((old.properties.apiVersion >> 12) & 0x3ff); 1.1 or later is needed")
        }
        let candidates = usable
        guard let selection, !selection.isEmpty else { return candidates.min { $0.rank < $1.rank } }
        if let index = Int(selection) {
            guard candidates.indices.contains(index) else {
                throw VulkanError(.unavailable, "FILTERRUN_DEVICE=\(selection): no Vulkan device with that index (\(candidates.count) found)")
            }
            return candidates[index]
        }
        guard let match = candidates.first(where: { $0.name.lowercased().contains(selection.lowercased()) }) else {
            let names = candidates.map(\.name).joined(separator: ", ")
            throw VulkanError(.unavailable, "FILTERRUN_DEVICE=\(selection): no Vulkan device matches (found: \(names.isEmpty ? "none" : names))")
        }
        return match
    }

    /// What VkPhysicalDeviceProperties2 adds to the core properties: the driver's name (nil when the driver gives
    /// none) and the largest single allocation (VkPhysicalDeviceMaintenance3Properties), in one query.
    static func extendedProperties(_ device: VkPhysicalDevice) -> (driver: String?, maxAllocation: Int) {
        var driver = VkPhysicalDeviceDriverProperties()
        driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES
        var maintenance = VkPhysicalDeviceMaintenance3Properties()
        maintenance.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES
        var properties = VkPhysicalDeviceProperties2()
        properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2
        withUnsafeMutablePointer(to: &maintenance) { maintenancePointer in
            driver.pNext = UnsafeMutableRawPointer(maintenancePointer)
            withUnsafeMutablePointer(to: &driver) { driverPointer in
                properties.pNext = UnsafeMutableRawPointer(driverPointer)
                vkGetPhysicalDeviceProperties2(device, &properties)
            }
        }
        let name = withUnsafeBytes(of: driver.driverName) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        let info = withUnsafeBytes(of: driver.driverInfo) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        let maxAllocation = maintenance.maxMemoryAllocationSize > 0 ? Int(clamping: maintenance.maxMemoryAllocationSize) : Int.max
        return (name.isEmpty ? nil : (info.isEmpty ? name : "\(name) \(info)"), maxAllocation)
    }

    static func storageFeatures(_ device: VkPhysicalDevice) -> (Bool, Bool) {
        var eight = VkPhysicalDevice8BitStorageFeatures()
        eight.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES
        var sixteen = VkPhysicalDevice16BitStorageFeatures()
        sixteen.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES
        var features = VkPhysicalDeviceFeatures2()
        features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2
        withUnsafeMutablePointer(to: &sixteen) { sixteenPointer in
            eight.pNext = UnsafeMutableRawPointer(sixteenPointer)
            withUnsafeMutablePointer(to: &eight) { eightPointer in
                features.pNext = UnsafeMutableRawPointer(eightPointer)
                vkGetPhysicalDeviceFeatures2(device, &features)
            }
        }
        return (eight.storageBuffer8BitAccess != 0, sixteen.storageBuffer16BitAccess != 0)
    }
}
