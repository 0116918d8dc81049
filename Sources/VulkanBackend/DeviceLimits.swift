import CVulkan

/// The device limits and features the backend respects, read once when the device is chosen.
package struct DeviceLimits: Sendable {
    /// Largest storage-buffer binding: every image buffer of a render must fit in one.
    package var maxStorageBufferRange: Int
    package var maxWorkGroupCount: (x: Int, y: Int)
    package var maxWorkGroupInvocations: Int
    package var maxPushConstantsSize: Int
    package var minStorageBufferOffsetAlignment: Int
    /// Bytes of the largest device-local heap.
    package var deviceLocalHeapBytes: Int
    /// What the driver says this process may use of that heap now (VK_EXT_memory_budget: the heap less what other
    /// processes hold); nil where the extension is missing.
    package var deviceLocalBudgetBytes: Int?
    package var storage8Bit: Bool
    package var storage16Bit: Bool
    /// Nanoseconds per timestamp tick; nil when compute queues cannot write timestamps.
    package var timestampPeriod: Double?
    /// Storage buffers one kernel may bind (the guaranteed minimum is 4; ours bind `KernelLayout.bindings`).
    package var maxStorageBuffersPerStage: Int
    package var maxWorkGroupSize: (x: Int, y: Int)
    /// Largest single memory allocation (VkPhysicalDeviceMaintenance3Properties); every buffer is one allocation.
    package var maxMemoryAllocationSize: Int
    /// Granularity of flushes and invalidations of host memory that is not coherent.
    package var nonCoherentAtomSize: Int

    init(_ properties: VkPhysicalDeviceProperties, memory: VkPhysicalDeviceMemoryProperties,
         storage8Bit: Bool, storage16Bit: Bool, timestamps: Bool, maxAllocation: Int) {
        let limits = properties.limits
        maxStorageBufferRange = Int(limits.maxStorageBufferRange)
        maxWorkGroupCount = (Int(limits.maxComputeWorkGroupCount.0), Int(limits.maxComputeWorkGroupCount.1))
        maxWorkGroupInvocations = Int(limits.maxComputeWorkGroupInvocations)
        maxPushConstantsSize = Int(limits.maxPushConstantsSize)
        minStorageBufferOffsetAlignment = Int(limits.minStorageBufferOffsetAlignment)
        var largest = 0
        withUnsafeBytes(of: memory.memoryHeaps) { raw in
            let heaps = raw.bindMemory(to: VkMemoryHeap.self)
            for i in 0..<Int(memory.memoryHeapCount)
            where heaps[i].flags & UInt32(VK_MEMORY_HEAP_DEVICE_LOCAL_BIT.rawValue) != 0 {
                largest = max(largest, Int(heaps[i].size))
            }
        }
        deviceLocalHeapBytes = largest
        self.storage8Bit = storage8Bit
        self.storage16Bit = storage16Bit
        timestampPeriod = timestamps && limits.timestampPeriod > 0 ? Double(limits.timestampPeriod) : nil
        maxStorageBuffersPerStage = Int(min(limits.maxPerStageDescriptorStorageBuffers, limits.maxDescriptorSetStorageBuffers))
        maxWorkGroupSize = (Int(limits.maxComputeWorkGroupSize.0), Int(limits.maxComputeWorkGroupSize.1))
        maxMemoryAllocationSize = maxAllocation
        nonCoherentAtomSize = max(1, Int(limits.nonCoherentAtomSize))
    }

    /// Why the device cannot run the kernels as written (16×16 work groups, `bindings` storage buffers), or nil.
    package func shortfall(bindings: Int) -> String? {
        if maxStorageBuffersPerStage < bindings {
            return "it binds at most \(maxStorageBuffersPerStage) storage buffers per kernel (maxPerStageDescriptorStorageBuffers); "
                + "the kernels bind \(bindings)"
        }
        if maxWorkGroupInvocations < 256 || maxWorkGroupSize.x < 256 || maxWorkGroupSize.y < 16 {
            return "its work groups hold \(maxWorkGroupInvocations) invocations (\(maxWorkGroupSize.x)×\(maxWorkGroupSize.y) "
                + "at most); the kernels use 16×16 and 256×1"
        }
        return nil
    }

    /// The limits in one line, for `--explain`.
    package var summary: String {
        let mib = 1 << 20
        let budget = deviceLocalBudgetBytes.map { ", budget \($0 / mib) MiB (VK_EXT_memory_budget)" } ?? ""
        return "max storage buffer \(maxStorageBufferRange / mib) MiB, device-local heap \(deviceLocalHeapBytes / mib) MiB\(budget), "
            + "work groups \(maxWorkGroupCount.x)×\(maxWorkGroupCount.y), push constants \(maxPushConstantsSize) B, "
            + "8/16-bit storage \(storage8Bit ? "yes" : "no")/\(storage16Bit ? "yes" : "no")"
    }
}
