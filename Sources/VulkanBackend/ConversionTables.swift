import CVulkan
import FilterCore

/// The CPU backend's conversion tables, uploaded once per process so both backends convert stored samples to
/// working values and back identically. Offsets match Shaders/include/common.glsl.
enum ConversionTables {
    static func values() -> [Float] {
        var table = [Float]()
        table.reserveCapacity(512 + 65536 + 2 * (SRGB.encodeSteps + 1))
        table += SRGB.decode8                                  // DECODE8 = 0
        table += (0..<256).map { Float($0) / 255 }             // UNIT8 = 256
        table += SRGB.decode16                                 // DECODE16 = 512
        table += SRGB.encodeTable                              // ENCODE = 66048
        table += SRGB.encode8.map { Float($0) }                // ENCODE8 = 131585
        precondition(table.count == 131585 + SRGB.encodeSteps + 1)
        return table
    }

    static func upload(to context: VulkanContext) throws -> DeviceBuffer {
        let values = values()
        let bytes = values.count * 4
        let buffer = try DeviceBuffer(context, byteCount: bytes, kind: .device)
        let staging = try DeviceBuffer(context, byteCount: bytes, kind: .upload)
        values.withUnsafeBytes { staging.mapped!.copyMemory(from: $0.baseAddress!, byteCount: bytes) }
        try context.submitOnce { commands in
            var region = VkBufferCopy(srcOffset: 0, dstOffset: 0, size: VkDeviceSize(bytes))
            vkCmdCopyBuffer(commands, staging.buffer, buffer.buffer, 1, &region)
        }
        return buffer
    }
}
