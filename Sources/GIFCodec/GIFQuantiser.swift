import CImageQuant
import CLazyLibraries
import FilterCore

/// A frame reduced to a GIF palette: an index a pixel, the palette's colours (RGB triples, a power of two of them,
/// as GIF's colour tables are), and the index that stands for transparency, if any pixel is transparent.
struct QuantisedFrame {
    var indices: [UInt8]
    var palette: [UInt8]
    var transparent: Int?
}

/// libimagequant (the system's, loaded when a GIF is first written) choosing each frame's palette. GIF has one
/// transparent index and no partial alpha: pixels under half opacity become transparent, the rest opaque, decided
/// by each pixel's own alpha before quantising.
enum GIFQuantiser {
    /// Loads libimagequant or says which package provides it.
    static func load(for path: String) throws {
        guard fr_lazy_load_imagequant() != 0 else {
            throw CodecError(kind: .unsupported, path: path, message: "GIF output needs libimagequant (Debian package "
                             + "libimagequant0), which could not be loaded: \(String(cString: fr_lazy_imagequant_error()))")
        }
    }

    static func validate(_ options: GIFWriteOptions, path: String) throws {
        func refuse(_ message: String) -> CodecError { CodecError(kind: .invalidRequest, path: path, message: message) }
        guard (2...256).contains(options.colours) else { throw refuse("GIF colours must be 2...256, got \(options.colours)") }
        guard (0...1).contains(options.dither) else { throw refuse("GIF dither must be 0...1, got \(options.dither)") }
        guard (0...9).contains(options.effort) else { throw refuse("GIF effort must be 0...9, got \(options.effort)") }
    }

    /// `width × height` RGBA pixels (8-bit, straight alpha) quantised as `options` say. Alpha is settled in place
    /// first (under half: transparent black; else opaque), so the palette holds at most one transparent entry and
    /// dithering never moves a pixel across the threshold; the caller's own copy is the only one made.
    static func quantise(_ rgba: inout [UInt8], width: Int, height: Int, options: GIFWriteOptions, path: String) throws -> QuantisedFrame {
        settle(&rgba)
        // libimagequant reads the pixels until its image is destroyed, inside this closure.
        return try rgba.withUnsafeBytes { try quantiseSettled($0.baseAddress!, width: width, height: height, options: options, path: path) }
    }

    /// Alpha settled in place: under half, transparent black; else opaque. True when every pixel is opaque.
    @discardableResult
    static func settle(_ rgba: inout [UInt8]) -> Bool {
        var opaque = true
        for p in stride(from: 0, to: rgba.count, by: 4) {
            if rgba[p + 3] < 128 {
                rgba[p] = 0; rgba[p + 1] = 0; rgba[p + 2] = 0; rgba[p + 3] = 0
                opaque = false
            } else {
                rgba[p + 3] = 255
            }
        }
        return opaque
    }

    private static func quantiseSettled(_ rgba: UnsafeRawPointer, width: Int, height: Int, options: GIFWriteOptions,
                                        path: String) throws -> QuantisedFrame {
        func failure(_ doing: String, _ code: liq_error) -> CodecError {
            CodecError(kind: code == LIQ_OUT_OF_MEMORY ? .tooLarge : .io, path: path,
                       message: "GIF quantisation failed \(doing) (libimagequant error \(code.rawValue))")
        }
        guard let attributes = liq_attr_create() else { throw failure("starting", LIQ_OUT_OF_MEMORY) }
        defer { liq_attr_destroy(attributes) }
        _ = liq_set_max_colors(attributes, Int32(options.colours))
        _ = liq_set_speed(attributes, Int32(max(1, 10 - options.effort)))
        guard let image = liq_image_create_rgba(attributes, rgba, Int32(width), Int32(height), 0) else {
            throw failure("reading the frame", LIQ_OUT_OF_MEMORY)
        }
        defer { liq_image_destroy(image) }
        var result: OpaquePointer?
        let code = liq_image_quantize(image, attributes, &result)
        guard code == LIQ_OK, let result else { throw failure("choosing the palette", code) }
        defer { liq_result_destroy(result) }
        _ = liq_set_dithering_level(result, Float(options.dither))
        var indices = [UInt8](repeating: 0, count: width * height)
        let written = indices.withUnsafeMutableBytes { liq_write_remapped_image(result, image, $0.baseAddress!, $0.count) }
        guard written == LIQ_OK, let palette = liq_get_palette(result)?.pointee else { throw failure("mapping the pixels", written) }
        let count = Int(min(palette.count, 256))
        var colours = [UInt8](), see = [Bool]()
        withUnsafeBytes(of: palette.entries) { raw in
            let entries = raw.bindMemory(to: liq_color.self)
            for i in 0..<count {
                colours += [entries[i].r, entries[i].g, entries[i].b]
                see.append(entries[i].a >= 128)
            }
        }
        // Every entry under half opacity becomes the one transparent index (black in the table).
        var transparent: Int?
        if let first = see.firstIndex(of: false) {
            transparent = first
            colours[first * 3] = 0; colours[first * 3 + 1] = 0; colours[first * 3 + 2] = 0
            if see.filter({ !$0 }).count > 1 {
                for i in indices.indices where !see[Int(indices[i])] { indices[i] = UInt8(first) }
            }
        }
        // GIF colour tables hold 2, 4, …, 256 entries.
        var size = 2
        while size < count { size *= 2 }
        colours += [UInt8](repeating: 0, count: (size - count) * 3)
        return QuantisedFrame(indices: indices, palette: colours, transparent: transparent)
    }
}
