import CVulkan

/// A Vulkan buffer and the memory bound to it. Device-local buffers hold images; host-visible ones are staging.
final class DeviceBuffer {
    unowned let context: VulkanContext
    let buffer: VkBuffer
    /// Where the buffer lives: a piece of a shared block or an allocation of its own (MemoryPool.swift).
    private let piece: MemoryPiece
    let byteCount: Int
    let kind: Kind
    private let allocationSize: Int
    /// Mapped host address for host-visible buffers.
    var mapped: UnsafeMutableRawPointer? { piece.mapped }
    /// False for mapped memory the host caches without coherence: what the device wrote must be invalidated
    /// before the host reads it (`invalidateForHost`).
    let coherent: Bool

    enum Kind { case device, upload, readback }

    init(_ context: VulkanContext, byteCount: Int, kind: Kind) throws {
        self.context = context
        self.byteCount = byteCount
        self.kind = kind
        let device = context.device
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = VkDeviceSize(max(4, byteCount))
        info.usage = UInt32(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT.rawValue | VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue
                            | VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue)
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        var made: VkBuffer?
        try check(vkCreateBuffer(device, &info, nil, &made), "vkCreateBuffer")
        buffer = made!
        var requirements = VkMemoryRequirements()
        vkGetBufferMemoryRequirements(device, buffer, &requirements)
        let visible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue, coherentBit = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue
        let cached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT.rawValue
        // In order of preference. The host reads readback memory: cached memory reads fast (uncached reads are
        // slow on mobile and integrated GPUs), coherent or not (then invalidated before reading).
        let choices: [UInt32]
        switch kind {
        case .device: choices = [VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue]
        case .upload: choices = [visible | coherentBit]
        case .readback: choices = [visible | cached | coherentBit, visible | cached, visible | coherentBit, visible]
        }
        guard let type = context.memoryType(bits: requirements.memoryTypeBits, choices: choices) else {
            vkDestroyBuffer(device, buffer, nil)
            throw VulkanError(.failed, "no suitable Vulkan memory type for a \(kind) buffer")
        }
        coherent = context.memoryFlags(type) & coherentBit != 0 && !(kind == .readback && context.simulateNonCoherentReadback)
        // Invalidation works in whole atoms: a readback piece starts and ends on them, so invalidating it never
        // reaches into a neighbour's.
        let atom = coherent ? 1 : context.limits.nonCoherentAtomSize
        allocationSize = (Int(requirements.size) + atom - 1) / atom * atom
        guard allocationSize <= context.limits.maxMemoryAllocationSize else {
            vkDestroyBuffer(device, buffer, nil)
            throw VulkanError(.tooLarge, "a \(allocationSize >> 20) MiB buffer exceeds the device's largest allocation "
                + "(\(context.limits.maxMemoryAllocationSize >> 20) MiB, maxMemoryAllocationSize)")
        }
        // On unified memory (integrated GPUs, ReBAR, lavapipe) device-local memory is host-visible too: such buffers
        // are mapped, and inputs are written straight into them instead of through a staging copy.
        let hostVisible = UInt32(VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue)
        do {
            piece = try context.allocate(bytes: allocationSize, alignment: max(Int(requirements.alignment), atom), type: type,
                                         mapped: kind != .device
                                             || (!context.simulatesDiscreteMemory && context.memoryFlags(type) & hostVisible == hostVisible))
        } catch {
            vkDestroyBuffer(device, buffer, nil)
            throw error
        }
        do {
            try check(vkBindBufferMemory(device, buffer, piece.memory, VkDeviceSize(piece.offset)), "vkBindBufferMemory")
        } catch {
            // deinit does not run for an object whose init threw: give both back here.
            vkDestroyBuffer(device, buffer, nil)
            context.release(piece)
            throw error
        }
    }

    deinit {
        vkDestroyBuffer(context.device, buffer, nil)
        context.release(piece)
    }

    /// Makes what the device wrote visible to the host's reads of non-coherent mapped memory (after the fence).
    func invalidateForHost() throws {
        guard !coherent, piece.mapped != nil else { return }
        var range = VkMappedMemoryRange()
        range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE
        range.memory = piece.memory
        range.offset = VkDeviceSize(piece.offset)
        range.size = VkDeviceSize(allocationSize)
        try check(vkInvalidateMappedMemoryRanges(context.device, 1, &range), "vkInvalidateMappedMemoryRanges")
    }
}

extension VulkanContext {
    /// The property flags of memory type `type`.
    func memoryFlags(_ type: UInt32) -> UInt32 {
        var properties = memoryProperties
        return withUnsafeBytes(of: &properties.memoryTypes) { $0.bindMemory(to: VkMemoryType.self)[Int(type)].propertyFlags }
    }

    /// The first memory type the buffer may use that has all the flags of one choice, choices in order.
    func memoryType(bits: UInt32, choices: [UInt32]) -> UInt32? {
        var properties = memoryProperties
        return withUnsafeBytes(of: &properties.memoryTypes) { raw -> UInt32? in
            let types = raw.bindMemory(to: VkMemoryType.self)
            let count = Int(memoryProperties.memoryTypeCount)
            for flags in choices {
                for i in 0..<count where bits & (1 << i) != 0 && types[i].propertyFlags & flags == flags {
                    return UInt32(i)
                }
            }
            return nil
        }
    }
}
