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

    /// `source` compiled to read the packed inputs among `inputs` (slots 0…2 after the output): for each, `PACKEDn`
    /// defined after `#version` (so images.glsl leaves out its working-value reader) and the reader written at
    /// images.glsl's `@PACKED_READERS` marker. Sources with no packed input are returned as they are, so they stay
    /// the same compiled kernel; a slot already read from samples is left as it is.
    static func reading(_ source: String, inputs: [CommandBatch.Binding?], linear: Bool) -> String {
        var defines = [String](), readers = [String]()
        for (slot, binding) in inputs.prefix(3).enumerated() {
            guard let format = binding?.packed?.format, !source.contains("#define PACKED\(slot)\n") else { continue }
            defines.append("#define PACKED\(slot)")
            readers.append(reader(slot: slot, format: format, linear: linear))
        }
        guard !defines.isEmpty, let newline = source.firstIndex(of: "\n"), let marker = source.range(of: readersMarker)
        else { return source }
        let defined = source[...newline] + defines.joined(separator: "\n") + "\n"
        return defined + source[source.index(after: newline)..<marker.lowerBound] + readers.joined() + source[marker.lowerBound...]
    }

    /// images.glsl's line where the readers of packed inputs go.
    static let readersMarker = "// @PACKED_READERS"

    /// Input `slot`'s binding as words of `format`'s samples and its `pixel<slot>`, converting as unpack.comp does;
    /// the push constants it reads are images.glsl's for that input (first row held, width, and the binding's byte
    /// offset to that row in rows2).
    static func reader(slot: Int, format: PixelFormat, linear: Bool) -> String {
        let (held, width, skip) = [("pc.rows.z", "pc.size.z", "pc.rows2.y"), ("pc.rows.w", "pc.size2.x", "pc.rows2.z"),
                                   ("pc.rows2.x", "pc.size2.z", "pc.rows2.w")][slot]
        let channels = format.channels, bytes = format.bytesPerSample
        let unit = "uintBitsToFloat(\((1 / Float(bytes == 1 ? 255 : 65535)).bitPattern)u)"
        func sample(_ k: Int) -> String { "sample\(slot)(base + \(k))" }
        if bytes == 1 { return byteReader(slot: slot, format: format, linear: linear) }
        let colour = channels > 2 ? "\(sample(0)), \(sample(1)), \(sample(2))" : "\(sample(0)), 0u, 0u"
        let alpha = channels == 2 || channels == 4 ? sample(channels - 1) : "0u"
        return """
        layout(std430, set = 0, binding = BINDING_INPUT\(slot)) readonly buffer Input\(slot) { uint words\(slot)[]; };
        uint sample\(slot)(int index) {
            int byteOffset = \(skip) + index * \(bytes);
            return storedSample(words\(slot)[byteOffset >> 2], byteOffset, \(bytes));
        }
        vec4 pixel\(slot)(int x, int y) {
            int base = ((y - \(held)) * \(width) + x) * \(channels);
            return storedPixel(\(colour), \(alpha), \(channels), \(bytes), \(linear), \(unit));
        }

        """
    }

    /// `reader` for 8-bit samples: a pixel's 1–4 bytes lie in one word or straddle two, so it loads those (one or
    /// two loads a pixel, where a load a sample took three or four) and takes each code from them.
    static func byteReader(slot: Int, format: PixelFormat, linear: Bool) -> String {
        let (held, width, skip) = [("pc.rows.z", "pc.size.z", "pc.rows2.y"), ("pc.rows.w", "pc.size2.x", "pc.rows2.z"),
                                   ("pc.rows2.x", "pc.size2.z", "pc.rows2.w")][slot]
        let channels = format.channels
        func code(_ k: Int) -> String { "((codes >> \(8 * k)u) & 0xffu)" }
        let colour = channels > 2 ? "\(code(0)), \(code(1)), \(code(2))" : "\(code(0)), 0u, 0u"
        let alpha = channels == 2 || channels == 4 ? code(channels - 1) : "0u"
        return """
        layout(std430, set = 0, binding = BINDING_INPUT\(slot)) readonly buffer Input\(slot) { uint words\(slot)[]; };
        vec4 pixel\(slot)(int x, int y) {
            int byteOffset = \(skip) + ((y - \(held)) * \(width) + x) * \(channels);
            int word = byteOffset >> 2;
            uint shift = uint(byteOffset & 3) * 8u;
            uint codes = words\(slot)[word] >> shift;
            // The binding ends at the word holding the last sample: a pixel straddling two words has its second.
            if (shift + \(8 * channels)u > 32u) codes |= words\(slot)[word + 1] << (32u - shift);
            return storedPixel(\(colour), \(alpha), \(channels), 1, \(linear), uintBitsToFloat(\((1 / Float(255)).bitPattern)u));
        }

        """
    }

    /// Sets the push constants' byte offsets (rows2.y, .z, .w for inputs 0, 1, 2) of the packed inputs among `inputs`.
    static func offsets(_ push: inout PushConstants, inputs: [CommandBatch.Binding?]) {
        for (slot, binding) in inputs.prefix(3).enumerated() {
            if let packed = binding?.packed { push.rows2[slot + 1] = Int32(packed.skip) }
        }
    }
}
