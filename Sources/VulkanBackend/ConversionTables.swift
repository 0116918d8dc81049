import CVulkan
import FilterCore

/// The CPU backend's conversion tables, uploaded once per process so both backends convert stored samples to
/// working values and back identically. The tables follow each other in `parts`' order; their offsets reach the
/// shaders as generated constants (`DECODE8`, `UNIT8`…: `KernelConstants.glsl`), so neither side writes a number.
enum ConversionTables {
    /// Each table's GLSL name and values, in upload order.
    static var parts: [(name: String, values: [Float])] {
        [("DECODE8", SRGB.decode8),                              // 256 linear values of 8-bit codes
         ("UNIT8", (0..<256).map { Float($0) / 255 }),           // 256 values code/255
         ("DECODE16", SRGB.decode16),                            // 65536 linear values of 16-bit codes
         ("ENCODE", SRGB.encodeTable),                           // encoded values on a 1/65536 linear grid (interpolated)
         ("ENCODE8", SRGB.encode8.map { Float($0) })]            // 8-bit codes on the same grid (nearest)
    }

    /// Each table's name and offset (in floats) in the uploaded buffer.
    static let offsets: [(name: String, offset: Int)] = {
        var offset = 0
        return parts.map { part in
            defer { offset += part.values.count }
            return (part.name, offset)
        }
    }()

    static func values() -> [Float] { parts.flatMap(\.values) }

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
