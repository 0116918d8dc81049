import CHEIF
import FilterCore
import Foundation

/// AVIF writer (libheif with libaom) into an `OutputFile`: lossy or lossless, 8, 10 or 12 bits, alpha kept, the
/// profile embedded as an ICC colour box, or sRGB declared by nclx code points when there is none; HDR rows
/// (BT.2100 PQ or HLG samples, told by `codingPoints`) are declared by theirs. The encoder
/// takes a whole picture, so rows are gathered (8-bit rows as they are, 16-bit ones as 16-bit words) and encoded
/// by `finish()`, which publishes the file; `abandon()` (or dropping the encoder unfinished) removes it. Grey rows
/// are written as RGB.
package final class AVIFEncoder: WholePictureEncoder {
    package let output: OutputFile
    package let width: Int
    package let height: Int
    package let format: PixelFormat

    private let options: AVIFWriteOptions
    private let icc: [UInt8]?
    private let codingPoints: ColourCodingPoints
    private let metadata: OutputMetadata?
    private let channels: Int
    package var gathered: GatheredPicture

    /// Every integer layout (8 or 16 bits, grey to RGBA).
    package static func accepts(_ format: PixelFormat) -> Bool { !format.isFloat }

    package init(output: OutputFile, width: Int, height: Int, format: PixelFormat,
                 options: AVIFWriteOptions = .default, icc: [UInt8]? = nil, metadata: OutputMetadata? = nil,
                 codingPoints: ColourCodingPoints = ColourCodingPoints(primaries: 1, transfer: 13)) throws {
        self.output = output
        self.codingPoints = codingPoints
        self.metadata = metadata
        self.width = width
        self.height = height
        self.format = format
        self.options = options
        self.icc = icc
        do {
            try HEIFLibrary.load(for: output.path, format: "AVIF")
            try Self.validate(options, format: format, width: width, height: height, path: output.path)
        } catch {
            output.abandon()
            throw error
        }
        channels = format.hasAlpha ? 4 : 3
        gathered = GatheredPicture(width: width, height: height, channels: channels, sampleBytes: format.depth == 16 ? 2 : 1)
    }

    /// Refuses what the format or the library cannot write, before any pixel is gathered.
    static func validate(_ options: AVIFWriteOptions, format: PixelFormat, width: Int, height: Int, path: String) throws {
        func refuse(_ message: String) -> CodecError { CodecError(kind: .invalidRequest, path: path, message: message) }
        guard accepts(format) else { throw refuse("AVIF output takes 8- or 16-bit rows, not \(format.rawValue)") }
        // AV1's own bound (16 bits a side), and libheif's default limit on an image's side.
        guard (1...32768).contains(width), (1...32768).contains(height) else {
            throw refuse("AVIF holds images up to 32768 pixels a side here; this one is \(width)×\(height)")
        }
        for (name, value, range) in [("quality", options.quality, 1...100), ("effort", options.effort, 0...9)]
        where !range.contains(value) {
            throw refuse("AVIF \(name) must be \(range.lowerBound)...\(range.upperBound), got \(value)")
        }
        guard [8, 10, 12].contains(options.bitDepth) else {
            throw refuse("AVIF bit depth must be 8, 10 or 12, got \(options.bitDepth)")
        }
        guard ["420", "422", "444"].contains(options.chroma) else {
            throw refuse("AVIF chroma must be 420, 422 or 444, got \"\(options.chroma)\"")
        }
        if options.bitDepth == 10 && !HEIFLibrary.encodesTenBitAV1 && (options.lossless || options.chroma != "422") {
            throw refuse("this libheif (\(String(cString: heif_get_version()))) cannot encode 10-bit AVIF except as "
                         + "lossy 4:2:2 (fixed in libheif 1.16); use bit depth 12, or chroma 422")
        }
    }

    deinit { if !gathered.isPublished { output.abandon() } }

    /// The picture as an AVIF file, in memory.
    package func encode(_ gathered: GatheredPicture) throws -> [UInt8] {
        let image = try picture(gathered)
        defer { heif_image_release(image) }
        guard let context = heif_context_alloc() else { throw CodecError(kind: .tooLarge, path: path, message: "out of memory encoding AVIF") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_AV1, &encoder))
        guard let encoder else {
            throw CodecError(kind: .unsupported, path: path, message: "this libheif has no AV1 encoder (libheif-plugin-aomenc)")
        }
        defer { heif_encoder_release(encoder) }
        if options.lossless {
            try check(heif_encoder_set_lossless(encoder, 1))
            try check(heif_encoder_set_parameter_string(encoder, "chroma", "444"))
        } else {
            try check(heif_encoder_set_lossy_quality(encoder, Int32(options.quality)))
            try check(heif_encoder_set_parameter_string(encoder, "chroma", options.chroma))
        }
        try check(heif_encoder_set_parameter_integer(encoder, "speed", Int32(9 - options.effort)))
        // Colour: the profile when there is one; code points always (sRGB's unless the rows are HDR), with RGB
        // coded as is when lossless, else the BT.601 matrix most decoders assume for SDR and BT.2020's
        // non-constant-luminance one for HDR, full range.
        guard let nclx = heif_nclx_color_profile_alloc(), let encoding = heif_encoding_options_alloc() else {
            throw CodecError(kind: .tooLarge, path: path, message: "out of memory encoding AVIF")
        }
        defer { heif_nclx_color_profile_free(nclx); heif_encoding_options_free(encoding) }
        _ = heif_nclx_color_profile_set_color_primaries(nclx, UInt16(codingPoints.primaries))
        _ = heif_nclx_color_profile_set_transfer_characteristics(nclx, UInt16(codingPoints.transfer))
        _ = heif_nclx_color_profile_set_matrix_coefficients(nclx, options.lossless ? 0 : codingPoints.isHDR ? 9 : 6)
        nclx.pointee.full_range_flag = 1
        // libheif before 1.16 codes the image with the image's code points, later ones with the options'.
        encoding.pointee.output_nclx_profile = nclx
        try check(heif_image_set_nclx_color_profile(image, nclx))
        encoding.pointee.save_two_colr_boxes_when_ICC_and_nclx_available = 1
        if let icc {
            try check(icc.withUnsafeBytes { heif_image_set_raw_color_profile(image, "prof", $0.baseAddress, $0.count) })
        }
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, image, encoder, encoding, &handle))
        defer { if let handle { heif_image_handle_release(handle) } }
        if let exif = metadata?.exif, exif.count <= Int(Int32.max) {
            try check(exif.withUnsafeBytes { heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count)) })
        }
        if let xmp = metadata?.xmp, xmp.count <= Int(Int32.max) {
            try check(xmp.withUnsafeBytes { heif_context_add_XMP_metadata(context, handle, $0.baseAddress, Int32($0.count)) })
        }
        var collected = [UInt8]()
        var writer = heif_writer(writer_api_version: 1) { _, data, size, user in
            let target = user!.assumingMemoryBound(to: [UInt8].self)
            target.pointee.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size))
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        }
        try check(withUnsafeMutablePointer(to: &collected) { heif_context_write(context, &writer, $0) })
        return collected
    }

    /// The gathered rows as a libheif image at the output's bit depth.
    private func picture(_ gathered: GatheredPicture) throws -> OpaquePointer {
        let deep = options.bitDepth > 8
        let chroma = deep ? (channels == 4 ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                          : (channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
        var image: OpaquePointer?
        try check(heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, chroma, &image))
        guard let image else { throw CodecError(kind: .tooLarge, path: path, message: "out of memory encoding AVIF") }
        do {
            try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), Int32(options.bitDepth)))
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
                throw CodecError(kind: .tooLarge, path: path, message: "out of memory encoding AVIF")
            }
            let samples = width * channels, wide = format.depth == 16, top = (1 << options.bitDepth) - 1
            gathered.pixels.withUnsafeBytes { all in
                for y in 0..<height {
                    let out = UnsafeMutableRawPointer(plane) + y * Int(stride)
                    switch (wide, deep) {
                    case (false, false):
                        out.copyMemory(from: all.baseAddress! + y * samples, byteCount: samples)
                    case (true, false):
                        let row = (all.baseAddress! + y * samples * 2).assumingMemoryBound(to: UInt16.self)
                        let target = out.assumingMemoryBound(to: UInt8.self)
                        for i in 0..<samples { target[i] = UInt8((Int(row[i]) * 255 + 32767) / 65535) }
                    case (false, true):
                        let row = (all.baseAddress! + y * samples).assumingMemoryBound(to: UInt8.self)
                        let target = out.assumingMemoryBound(to: UInt16.self)
                        for i in 0..<samples { target[i] = UInt16((Int(row[i]) * top + 127) / 255).littleEndian }
                    case (true, true):
                        let row = (all.baseAddress! + y * samples * 2).assumingMemoryBound(to: UInt16.self)
                        let target = out.assumingMemoryBound(to: UInt16.self)
                        for i in 0..<samples { target[i] = UInt16((Int(row[i]) * top + 32767) / 65535).littleEndian }
                    }
                }
            }
            return image
        } catch {
            heif_image_release(image)
            throw error
        }
    }

    private func check(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        let detail = error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)"
        throw CodecError(kind: .io, path: path, message: "AVIF encoding failed: \(detail)")
    }
}
