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
        let wanted: UInt32, preferred: UInt32
        switch kind {
        case .device:
            wanted = UInt32(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue)
            preferred = wanted
        case .upload:
            wanted = UInt32(VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue)
            preferred = wanted
        case .readback:
            wanted = UInt32(VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue)
            preferred = wanted | UInt32(VK_MEMORY_PROPERTY_HOST_CACHED_BIT.rawValue)
        }
        guard let type = context.memoryType(bits: requirements.memoryTypeBits, preferred: preferred, required: wanted) else {
            vkDestroyBuffer(device, buffer, nil)
            throw VulkanError(.failed, "no suitable Vulkan memory type for a \(kind) buffer")
        }
        allocationSize = Int(requirements.size)
        guard allocationSize <= context.limits.maxMemoryAllocationSize else {
            vkDestroyBuffer(device, buffer, nil)
            throw VulkanError(.tooLarge, "a \(allocationSize >> 20) MiB buffer exceeds the device's largest allocation "
                + "(\(context.limits.maxMemoryAllocationSize >> 20) MiB, maxMemoryAllocationSize)")
        }
        // On unified memory (integrated GPUs, ReBAR, lavapipe) device-local memory is host-visible too: such buffers
        // are mapped, and inputs are written straight into them instead of through a staging copy.
        let hostVisible = UInt32(VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue)
        do {
            piece = try context.allocate(bytes: allocationSize, alignment: Int(requirements.alignment), type: type,
                                         mapped: kind != .device || context.memoryFlags(type) & hostVisible == hostVisible)
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
}

extension VulkanContext {
    /// The property flags of memory type `type`.
    func memoryFlags(_ type: UInt32) -> UInt32 {
        var properties = memoryProperties
        return withUnsafeBytes(of: &properties.memoryTypes) { $0.bindMemory(to: VkMemoryType.self)[Int(type)].propertyFlags }
    }

    func memoryType(bits: UInt32, preferred: UInt32, required: UInt32) -> UInt32? {
        var properties = memoryProperties
        return withUnsafeBytes(of: &properties.memoryTypes) { raw -> UInt32? in
            let types = raw.bindMemory(to: VkMemoryType.self)
            let count = Int(memoryProperties.memoryTypeCount)
            for flags in [preferred, required] {
                for i in 0..<count where bits & (1 << i) != 0 && types[i].propertyFlags & flags == flags {
                    return UInt32(i)
                }
            }
            return nil
        }
    }
}
