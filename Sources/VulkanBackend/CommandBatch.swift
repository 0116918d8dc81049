import CVulkan

/// One command buffer of a render (or of one of its bounded submits): copies and dispatches with the barriers the
/// recorder asks for, submitted and waited on with a fence. Optional timestamps measure each labelled stretch.
final class CommandBatch {
    let context: VulkanContext
    let commands: VkCommandBuffer
    private let pool: VkCommandPool
    private var descriptorPools: [VkDescriptorPool] = []
    private var setsLeft = 0
    private let queries: VkQueryPool?
    private let queryCapacity: Int
    /// Labels of the timestamps written so far; stretch i ends at timestamp i + 1.
    private(set) var marks: [String] = []
    /// Objects that must live until the batch has run, and staging buffers to return to the pool then.
    private var keepAlive: [AnyObject] = []
    private var borrowed: [DeviceBuffer] = []

    init(_ context: VulkanContext, timestamps: Int = 0) throws {
        self.context = context
        let device = context.device
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.queueFamilyIndex = context.queueFamily
        poolInfo.flags = UInt32(VK_COMMAND_POOL_CREATE_TRANSIENT_BIT.rawValue)
        var madePool: VkCommandPool?
        try check(vkCreateCommandPool(device, &poolInfo, nil, &madePool), "vkCreateCommandPool")
        pool = madePool!
        var allocateInfo = VkCommandBufferAllocateInfo()
        allocateInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
        allocateInfo.commandPool = pool
        allocateInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY
        allocateInfo.commandBufferCount = 1
        var madeCommands: VkCommandBuffer?
        try check(vkAllocateCommandBuffers(device, &allocateInfo, &madeCommands), "vkAllocateCommandBuffers")
        commands = madeCommands!
        if timestamps > 0, context.limits.timestampPeriod != nil {
            var queryInfo = VkQueryPoolCreateInfo()
            queryInfo.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO
            queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP
            queryInfo.queryCount = UInt32(timestamps + 1)
            var madeQueries: VkQueryPool?
            try check(vkCreateQueryPool(device, &queryInfo, nil, &madeQueries), "vkCreateQueryPool")
            queries = madeQueries
            queryCapacity = timestamps + 1
        } else {
            queries = nil
            queryCapacity = 0
        }
        var begin = VkCommandBufferBeginInfo()
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        begin.flags = UInt32(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue)
        try check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer")
        if let queries {
            vkCmdResetQueryPool(commands, queries, 0, UInt32(queryCapacity))
            vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries, 0)
        }
    }

    deinit {
        // A batch dropped while the device runs it (a render that failed on the host meanwhile) is waited for
        // before what it uses is destroyed.
        if let pending {
            var waiting: VkFence? = pending
            _ = vkWaitForFences(context.device, 1, &waiting, VkBool32(VK_TRUE), UInt64.max)
            vkDestroyFence(context.device, pending, nil)
        }
        for pool in descriptorPools { vkDestroyDescriptorPool(context.device, pool, nil) }
        if let queries { vkDestroyQueryPool(context.device, queries, nil) }
        vkDestroyCommandPool(context.device, pool, nil)
    }

    func retain(_ object: AnyObject) { keepAlive.append(object) }

    /// A staging buffer from the context's pool, returned to it once the batch has run.
    func staging(bytes: Int, kind: DeviceBuffer.Kind) throws -> DeviceBuffer {
        let buffer = try context.staging.take(context, bytes: bytes, kind: kind)
        borrowed.append(buffer)
        return buffer
    }

    func copy(from source: DeviceBuffer, to destination: DeviceBuffer, sourceOffset: Int = 0, destinationOffset: Int = 0,
              bytes: Int) {
        var region = VkBufferCopy(srcOffset: VkDeviceSize(sourceOffset), dstOffset: VkDeviceSize(destinationOffset),
                                  size: VkDeviceSize(bytes))
        vkCmdCopyBuffer(commands, source.buffer, destination.buffer, 1, &region)
    }

    /// Makes every earlier write visible to every later read or write (copies and kernels alike).
    func barrier() {
        var barrier = VkMemoryBarrier()
        barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER
        barrier.srcAccessMask = UInt32(VK_ACCESS_SHADER_WRITE_BIT.rawValue | VK_ACCESS_TRANSFER_WRITE_BIT.rawValue)
        barrier.dstAccessMask = UInt32(VK_ACCESS_SHADER_READ_BIT.rawValue | VK_ACCESS_SHADER_WRITE_BIT.rawValue
                                       | VK_ACCESS_TRANSFER_READ_BIT.rawValue | VK_ACCESS_TRANSFER_WRITE_BIT.rawValue)
        let stages = UInt32(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue | VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue)
        vkCmdPipelineBarrier(commands, stages, stages, 0, 1, &barrier, 0, nil, 0, nil)
    }

    /// Makes the readback's writes visible to the host, which reads the mapped buffer after the fence.
    func hostReadBarrier() {
        var barrier = VkMemoryBarrier()
        barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER
        // The readback is written by a copy, or by the pack kernel itself on unified memory.
        barrier.srcAccessMask = UInt32(VK_ACCESS_TRANSFER_WRITE_BIT.rawValue | VK_ACCESS_SHADER_WRITE_BIT.rawValue)
        barrier.dstAccessMask = UInt32(VK_ACCESS_HOST_READ_BIT.rawValue)
        vkCmdPipelineBarrier(commands, UInt32(VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue),
                             UInt32(VK_PIPELINE_STAGE_HOST_BIT.rawValue), 0, 1, &barrier, 0, nil, 0, nil)
    }

    /// A storage-buffer binding: the whole buffer, or a range of it.
    struct Binding {
        var buffer: DeviceBuffer
        var offset = 0
        var range: Int?
        /// Set where the binding is an uploaded source read straight from its stored samples (`PackedSamples`).
        var packed: PackedSamples? = nil
    }

    /// Records one dispatch; `bindings` are slots 0…5 of the kernel layout (nil slots get `filler`).
    func dispatch(_ pipeline: VkPipeline, bindings: [Binding?], filler: DeviceBuffer, push: PushConstants,
                  groups: (x: Int, y: Int)) throws {
        let set = try allocateSet()
        var infos = (0..<KernelLayout.bindings).map { slot -> VkDescriptorBufferInfo in
            let binding = slot < bindings.count ? bindings[slot] : nil
            let buffer = binding?.buffer ?? filler
            let range = binding?.range.map { VkDeviceSize($0) } ?? VkDeviceSize(VK_WHOLE_SIZE)
            return VkDescriptorBufferInfo(buffer: buffer.buffer, offset: VkDeviceSize(binding?.offset ?? 0), range: range)
        }
        infos.withUnsafeMutableBufferPointer { pointer in
            var writes = (0..<KernelLayout.bindings).map { slot -> VkWriteDescriptorSet in
                var write = VkWriteDescriptorSet()
                write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
                write.dstSet = set
                write.dstBinding = UInt32(slot)
                write.descriptorCount = 1
                write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                write.pBufferInfo = UnsafePointer(pointer.baseAddress! + slot)
                return write
            }
            vkUpdateDescriptorSets(context.device, UInt32(writes.count), &writes, 0, nil)
        }
        vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline)
        var setHandle: VkDescriptorSet? = set
        vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, context.kernelLayout.pipelineLayout,
                                0, 1, &setHandle, 0, nil)
        var push = push
        vkCmdPushConstants(commands, context.kernelLayout.pipelineLayout, UInt32(VK_SHADER_STAGE_COMPUTE_BIT.rawValue),
                           0, UInt32(MemoryLayout<PushConstants>.size), &push)
        vkCmdDispatch(commands, UInt32(groups.x), UInt32(groups.y), 1)
    }

    /// Ends the stretch of work since the previous mark, under `label`.
    func mark(_ label: String) {
        guard let queries, marks.count + 1 < queryCapacity else { return }
        marks.append(label)
        vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, UInt32(marks.count))
    }

    /// The fence of a submitted batch not yet waited for.
    private var pending: VkFence?

    /// Submits, waits for completion, and returns the device seconds of each marked stretch.
    func submitAndWait() throws -> [(label: String, seconds: Double)] {
        try submit()
        return try wait()
    }

    /// Submits the batch to the queue without waiting (`wait` collects it): the host goes on with other work, such
    /// as reading the next band's rows, while the device runs it.
    func submit() throws {
        try check(vkEndCommandBuffer(commands), "vkEndCommandBuffer")
        let device = context.device
        var fenceInfo = VkFenceCreateInfo()
        fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO
        var fence: VkFence?
        try check(vkCreateFence(device, &fenceInfo, nil, &fence), "vkCreateFence")
        var submit = VkSubmitInfo()
        submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
        submit.commandBufferCount = 1
        var commandHandle: VkCommandBuffer? = commands
        let submitted: VkResult = context.simulateDeviceLoss ? VK_ERROR_DEVICE_LOST : withUnsafePointer(to: &commandHandle) { pointer in
            submit.pCommandBuffers = pointer
            context.lock.lock()
            defer { context.lock.unlock() }
            return vkQueueSubmit(context.queue, 1, &submit, fence)
        }
        guard submitted == VK_SUCCESS else {
            vkDestroyFence(device, fence, nil)
            try lost(submitted)
            try check(submitted, "vkQueueSubmit")
            return
        }
        pending = fence
    }

    /// Waits for the submitted batch, releases what it held, and returns the device seconds of each marked stretch.
    func wait() throws -> [(label: String, seconds: Double)] {
        guard let fence = pending else { throw VulkanError(.failed, "a command batch was waited for before its submit") }
        let device = context.device
        var waiting: VkFence? = fence
        let waited = vkWaitForFences(device, 1, &waiting, VkBool32(VK_TRUE), UInt64.max)
        vkDestroyFence(device, fence, nil)
        pending = nil
        try lost(waited)
        try check(waited, "vkWaitForFences")
        keepAlive.removeAll()
        for buffer in borrowed { context.staging.give(buffer) }
        borrowed.removeAll()
        guard let queries, !marks.isEmpty, let period = context.limits.timestampPeriod else { return [] }
        var ticks = [UInt64](repeating: 0, count: marks.count + 1)
        let flags = UInt32(VK_QUERY_RESULT_64_BIT.rawValue | VK_QUERY_RESULT_WAIT_BIT.rawValue)
        try check(vkGetQueryPoolResults(device, queries, 0, UInt32(ticks.count), ticks.count * 8, &ticks, 8, flags),
                  "vkGetQueryPoolResults")
        return marks.enumerated().map { i, label in
            (label, Double(ticks[i + 1] &- ticks[i]) * period * 1e-9)
        }
    }

    /// A lost device turns Vulkan off for the process.
    private func lost(_ result: VkResult) throws {
        guard result == VK_ERROR_DEVICE_LOST else { return }
        context.markLost()
        throw VulkanError(.failed, "the Vulkan device \(context.deviceName) was lost during the render (driver reset "
            + "or timeout); Vulkan is off for the rest of this process")
    }

    private func allocateSet() throws -> VkDescriptorSet {
        if setsLeft == 0 {
            let sets = 64
            var size = VkDescriptorPoolSize(type: VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                            descriptorCount: UInt32(sets * KernelLayout.bindings))
            var info = VkDescriptorPoolCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO
            info.maxSets = UInt32(sets)
            info.poolSizeCount = 1
            var made: VkDescriptorPool?
            try withUnsafePointer(to: &size) { pointer in
                info.pPoolSizes = pointer
                try check(vkCreateDescriptorPool(context.device, &info, nil, &made), "vkCreateDescriptorPool")
            }
            descriptorPools.append(made!)
            setsLeft = sets
        }
        var info = VkDescriptorSetAllocateInfo()
        info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
        info.descriptorPool = descriptorPools.last!
        info.descriptorSetCount = 1
        var layout: VkDescriptorSetLayout? = context.kernelLayout.setLayout
        var set: VkDescriptorSet?
        try withUnsafePointer(to: &layout) { pointer in
            info.pSetLayouts = pointer
            try check(vkAllocateDescriptorSets(context.device, &info, &set), "vkAllocateDescriptorSets")
        }
        setsLeft -= 1
        return set!
    }
}

extension VulkanContext {
    /// Records with `body`, submits and waits (for one-off work such as uploading the conversion tables).
    func submitOnce(_ body: (VkCommandBuffer) throws -> Void) throws {
        let batch = try CommandBatch(self)
        try body(batch.commands)
        _ = try batch.submitAndWait()
    }
}
