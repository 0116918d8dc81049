import FilterCore

/// An uploaded source that the kernels reading it convert pixel by pixel from its stored samples, instead of a
/// working copy made by unpack.comp first. The copy was the largest buffer of most renders (a 12 MP RGB photo: 190 MiB
/// of float32 working values beside its 36 MB of samples) and a pass over the whole image; reading the samples costs
/// each reader the conversion, which is a table lookup a sample, as unpack.comp's. Every kernel reads its inputs
/// through images.glsl's `pixel0`…`pixel2`, which take a packed input where the kernel's source defines `PACKEDn`.
struct PackedSamples: Hashable {
    /// The source's stored format (8- or 16-bit samples, 1–4 channels).
    let format: PixelFormat
    /// Bytes between the binding's start (aligned to the device's minimum) and the first row it holds.
    let skip: Int

    /// The binding of rows `rows` of the upload `buffer` holding `format`'s samples of an image `width` wide.
    static func binding(_ buffer: DeviceBuffer, format: PixelFormat, width: Int, rows: Range<Int>,
                        alignment: Int) -> CommandBatch.Binding {
        let rowBytes = width * format.bytesPerPixel
        let start = rows.lowerBound * rowBytes
        let offset = start / alignment * alignment
        let range = min(buffer.byteCount - offset, VulkanRun.wordAligned(start - offset + rows.count * rowBytes))
        return CommandBatch.Binding(buffer: buffer, offset: offset, range: range,
                                    packed: PackedSamples(format: format, skip: start - offset))
    }

    /// `source` compiled to read the packed inputs among `inputs` (slots 0…2 after the output): each one's format
    /// as `PACKEDn` defines, the working space as `PACKED_LINEAR`. Sources with no packed input are returned as
    /// they are, so they stay the same compiled kernel.
    static func reading(_ source: String, inputs: [CommandBatch.Binding?], linear: Bool) -> String {
        var defines = [String]()
        for (slot, binding) in inputs.enumerated() {
            guard let format = binding?.packed?.format else { continue }
            let unit = 1 / Float(format.bytesPerSample == 1 ? 255 : 65535)
            defines += ["#define PACKED\(slot) \(format.channels)", "#define PACKED\(slot)_BYTES \(format.bytesPerSample)",
                        "#define PACKED\(slot)_UNIT uintBitsToFloat(\(unit.bitPattern)u)"]
        }
        guard !defines.isEmpty, let newline = source.firstIndex(of: "\n") else { return source }
        defines.append("#define PACKED_LINEAR \(linear ? 1 : 0)")
        return source[...newline] + defines.joined(separator: "\n") + "\n" + source[source.index(after: newline)...]
    }

    /// Sets the push constants' byte offsets (rows2.y, .z, .w for inputs 0, 1, 2) of the packed inputs among `inputs`.
    static func offsets(_ push: inout PushConstants, inputs: [CommandBatch.Binding?]) {
        for (slot, binding) in inputs.prefix(3).enumerated() {
            if let packed = binding?.packed { push.rows2[slot + 1] = Int32(packed.skip) }
        }
    }
}
