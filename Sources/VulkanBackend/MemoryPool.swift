import CVulkan
import Foundation

/// Device memory for buffers: small buffers are carved from a few shared blocks per memory type, large ones get an
/// allocation of their own. Drivers cap the number of allocations (4 096 on many), each is a kernel call, and a small
/// one wastes a page-sized minimum: best-practices validation warns on every buffer that owns a small allocation.
/// One empty block per memory type is kept for the next render, so a batch does not allocate per file.
enum MemoryPool {
    /// The size of a shared block.
    static let blockSize = 16 << 20
    /// Requests from this size up get an allocation of their own: they are few, and a block would waste most of
    /// itself on them. Test hook: `FILTERRUN_VULKAN_DEDICATED_ALLOCATIONS=1` gives every buffer its own (what
    /// best-practices validation flags, so the tests can see a message reach the messenger).
    static let dedicatedFrom = ProcessInfo.processInfo.environment["FILTERRUN_VULKAN_DEDICATED_ALLOCATIONS"] == "1" ? 0 : 4 << 20
}

/// A buffer's memory: `size` bytes at `offset` of `memory`, mapped at `mapped` when host-visible.
struct MemoryPiece {
    let memory: VkDeviceMemory
    let offset: Int
    let size: Int
    let mapped: UnsafeMutableRawPointer?
    /// Its memory type (which heap it is charged to).
    let type: UInt32
    /// The shared block the piece was carved from; nil for an allocation of its own.
    fileprivate let block: MemoryBlock?
}

/// One shared allocation and its free ranges (sorted by offset, adjacent ones merged).
package final class MemoryBlock {
    let memory: VkDeviceMemory
    let size: Int
    let type: UInt32
    let mapped: UnsafeMutableRawPointer?
    package private(set) var free: [(offset: Int, size: Int)]
    package private(set) var used = 0

    package init(memory: VkDeviceMemory, size: Int, type: UInt32, mapped: UnsafeMutableRawPointer?) {
        self.memory = memory
        self.size = size
        self.type = type
        self.mapped = mapped
        free = [(0, size)]
    }

    /// The offset of `bytes` aligned to `alignment` (a power of two) in the first range that holds them.
    package func carve(_ bytes: Int, alignment: Int) -> Int? {
        for (i, range) in free.enumerated() {
            let start = (range.offset + alignment - 1) & ~(alignment - 1)
            let end = range.offset + range.size
            guard start + bytes <= end else { continue }
            var replacement: [(offset: Int, size: Int)] = []
            if start > range.offset { replacement.append((range.offset, start - range.offset)) }
            if start + bytes < end { replacement.append((start + bytes, end - start - bytes)) }
            free.replaceSubrange(i...i, with: replacement)
            used += bytes
            return start
        }
        return nil
    }

    /// Gives back `bytes` at `offset`, merging with the free ranges beside it.
    package func giveBack(offset: Int, bytes: Int) {
        used -= bytes
        let index = free.firstIndex { $0.offset > offset } ?? free.count
        free.insert((offset, bytes), at: index)
        if index + 1 < free.count, free[index].offset + free[index].size == free[index + 1].offset {
            free[index].size += free[index + 1].size
            free.remove(at: index + 1)
        }
        if index > 0, free[index - 1].offset + free[index - 1].size == free[index].offset {
            free[index - 1].size += free[index].size
            free.remove(at: index)
        }
    }
}

extension VulkanContext {
    /// Bytes of the device budget not allocated now.
    var availableMemory: Int {
        lock.lock()
        defer { lock.unlock() }
        return heapLedger.availableDeviceBytes
    }

    /// Whether host-visible memory (staging and readback buffers) comes out of a device-local heap: unified memory.
    var hostMemoryIsDeviceLocal: Bool {
        if simulatesDiscreteMemory { return false }
        let hostVisible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue
        guard let type = memoryType(bits: ~0, choices: [hostVisible]) else { return true }
        return heapLedger.heaps[heap(of: type)].deviceLocal
    }

    /// The heap memory type `type` allocates from.
    func heap(of type: UInt32) -> Int {
        var properties = memoryProperties
        return withUnsafeBytes(of: &properties.memoryTypes) { Int($0.bindMemory(to: VkMemoryType.self)[Int(type)].heapIndex) }
    }

    /// Memory of `type` for a buffer of `bytes` (aligned to `alignment`), within the budget; refusing beyond it reads
    /// the same as the device running out. Host-visible memory comes mapped.
    func allocate(bytes: Int, alignment: Int, type: UInt32, mapped: Bool) throws -> MemoryPiece {
        lock.lock()
        defer { lock.unlock() }
        let alignment = max(1, alignment)
        if bytes < MemoryPool.dedicatedFrom {
            // Blocks are kept apart by mapping too: one memory type can serve mapped staging and unmapped images.
            for block in memoryBlocks where block.type == type && (block.mapped != nil) == mapped {
                if let offset = block.carve(bytes, alignment: alignment) { return piece(of: block, at: offset, bytes: bytes) }
            }
            // A new block, unless the budget left cannot hold one: a small budget is never spent on free space.
            if heapLedger.fits(MemoryPool.blockSize, heap: heap(of: type)) {
                let (memory, pointer) = try allocateMemory(bytes: MemoryPool.blockSize, type: type, mapped: mapped)
                let block = MemoryBlock(memory: memory, size: MemoryPool.blockSize, type: type, mapped: pointer)
                memoryBlocks.append(block)
                return piece(of: block, at: block.carve(bytes, alignment: alignment)!, bytes: bytes)
            }
        }
        let (memory, pointer) = try allocateMemory(bytes: bytes, type: type, mapped: mapped)
        return MemoryPiece(memory: memory, offset: 0, size: bytes, mapped: pointer, type: type, block: nil)
    }

    /// Gives a piece back; an emptied block is freed unless it is its type's only empty one.
    func release(_ piece: MemoryPiece) {
        lock.lock()
        defer { lock.unlock() }
        guard let block = piece.block else {
            freeMemory(piece.memory, bytes: piece.size, type: piece.type)
            return
        }
        block.giveBack(offset: piece.offset, bytes: piece.size)
        guard block.used == 0, memoryBlocks.contains(where: { other in
            other !== block && other.type == block.type && (other.mapped != nil) == (block.mapped != nil) && other.used == 0
        }) else { return }
        memoryBlocks.removeAll { $0 === block }
        freeMemory(block.memory, bytes: block.size, type: block.type)
    }

    private func piece(of block: MemoryBlock, at offset: Int, bytes: Int) -> MemoryPiece {
        MemoryPiece(memory: block.memory, offset: offset, size: bytes, mapped: block.mapped.map { $0 + offset },
                    type: block.type, block: block)
    }

    /// One `vkAllocateMemory` within the budget, mapped whole when asked (the lock is held).
    private func allocateMemory(bytes: Int, type: UInt32, mapped: Bool) throws -> (VkDeviceMemory, UnsafeMutableRawPointer?) {
        let heap = heap(of: type)
        guard heapLedger.fits(bytes, heap: heap) else {
            throw VulkanError(.failed, "Vulkan allocation of \(bytes) bytes failed: out of device memory "
                                      + "(\(heapLedger.describe(heap: heap)))")
        }
        var info = VkMemoryAllocateInfo()
        info.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        info.allocationSize = VkDeviceSize(bytes)
        info.memoryTypeIndex = type
        var made: VkDeviceMemory?
        try check(vkAllocateMemory(device, &info, nil, &made), "vkAllocateMemory(\(bytes) bytes)")
        let memory = made!
        var pointer: UnsafeMutableRawPointer?
        if mapped {
            let result = vkMapMemory(device, memory, 0, VkDeviceSize(VK_WHOLE_SIZE), 0, &pointer)
            if result != VK_SUCCESS {
                vkFreeMemory(device, memory, nil)
                try check(result, "vkMapMemory")
            }
        }
        heapLedger.charge(bytes, heap: heap)
        return (memory, pointer)
    }

    /// One `vkFreeMemory` (the lock is held).
    private func freeMemory(_ memory: VkDeviceMemory, bytes: Int, type: UInt32) {
        vkFreeMemory(device, memory, nil)
        heapLedger.release(bytes, heap: heap(of: type))
    }
}
