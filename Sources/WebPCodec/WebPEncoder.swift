import CWebP
import FilterCore
import Foundation

/// WebP writer (libwebp) into an `OutputFile`: lossy or lossless, alpha kept, the profile embedded as an ICCP
/// chunk. libwebp encodes a whole picture, so rows are gathered (3 or 4 bytes a pixel) and encoded by `finish()`,
/// which publishes the file; `abandon()` (or dropping the encoder unfinished) removes it. Grey rows are written as
/// RGB (WebP stores no grey).
package final class WebPEncoder: WholePictureEncoder {
    package let output: OutputFile
    package let width: Int
    package let height: Int
    package let format: PixelFormat

    private let options: WebPWriteOptions
    private let icc: [UInt8]?
    private let metadata: OutputMetadata?
    private let channels: Int
    package var gathered: GatheredPicture

    package static func accepts(_ format: PixelFormat) -> Bool { [.grey8, .greyA8, .rgb8, .rgba8].contains(format) }

    package init(output: OutputFile, width: Int, height: Int, format: PixelFormat,
                 options: WebPWriteOptions = .default, icc: [UInt8]? = nil, metadata: OutputMetadata? = nil) throws {
        self.output = output
        self.metadata = metadata
        self.width = width
        self.height = height
        self.format = format
        self.options = options
        self.icc = icc
        guard Self.accepts(format) else {
            output.abandon()
            throw CodecError(kind: .invalidRequest, path: output.path, message: "WebP output takes 8-bit rows, not \(format.rawValue)")
        }
        // WebP's own limit: 14 bits a side.
        guard (1...16383).contains(width), (1...16383).contains(height) else {
            output.abandon()
            throw CodecError(kind: .invalidRequest, path: output.path,
                             message: "WebP holds images up to 16383 pixels a side; this one is \(width)×\(height)")
        }
        for (name, value, range) in [("quality", options.quality, 1...100), ("near-lossless", options.nearLossless, 0...100),
                                     ("effort", options.effort, 0...6), ("alpha quality", options.alphaQuality, 0...100)]
        where !range.contains(value) {
            output.abandon()
            throw CodecError(kind: .invalidRequest, path: output.path,
                             message: "WebP \(name) must be \(range.lowerBound)...\(range.upperBound), got \(value)")
        }
        channels = format.hasAlpha ? 4 : 3
        gathered = GatheredPicture(width: width, height: height, channels: channels, sampleBytes: 1)
    }

    deinit { if !gathered.isPublished { output.abandon() } }

    /// The picture as a WebP file: the bitstream, in an extended file with the profile, Exif and XMP chunks when
    /// there are any.
    package func encode(_ gathered: GatheredPicture) throws -> [UInt8] {
        let bitstream = try self.bitstream(gathered)
        var chunks = [(String, [UInt8])]()
        if let icc { chunks.append(("ICCP", icc)) }
        if let exif = metadata?.exif { chunks.append(("EXIF", exif)) }
        if let xmp = metadata?.xmp { chunks.append(("XMP ", xmp)) }
        return chunks.isEmpty ? bitstream : try Self.extended(bitstream, chunks: chunks, path: path)
    }

    /// The picture as a WebP bitstream.
    private func bitstream(_ gathered: GatheredPicture) throws -> [UInt8] {
        var config = WebPConfig()
        var picture = WebPPicture()
        guard WebPConfigInitInternal(&config, WEBP_PRESET_DEFAULT, Float(options.quality), WEBP_ENCODER_ABI_VERSION) != 0,
              WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw CodecError(kind: .invalidRequest, path: path, message: "the WebP library's version does not match its headers")
        }
        config.lossless = options.lossless ? 1 : 0
        config.method = Int32(options.effort)
        config.alpha_quality = Int32(options.alphaQuality)
        config.near_lossless = Int32(options.nearLossless)
        // Lossless keeps the colour of fully transparent pixels too (they are data to a compositing pipeline).
        config.exact = options.lossless ? 1 : 0
        // libwebp's second thread (analysis and alpha beside the main pass) is made for each encode: worth it for a
        // render alone, not where every core already has a render (`RenderLoad.saturated`).
        config.thread_level = RenderLoad.saturated ? 0 : 1
        picture.width = Int32(width)
        picture.height = Int32(height)
        picture.use_argb = options.lossless ? 1 : 0
        var memory = WebPMemoryWriter()
        WebPMemoryWriterInit(&memory)
        defer {
            WebPMemoryWriterClear(&memory)
            WebPPictureFree(&picture)
        }
        let imported = gathered.pixels.withUnsafeBufferPointer { bytes in
            channels == 4 ? WebPPictureImportRGBA(&picture, bytes.baseAddress, Int32(width * 4))
                          : WebPPictureImportRGB(&picture, bytes.baseAddress, Int32(width * 3))
        }
        guard imported != 0 else { throw CodecError(kind: .io, path: path, message: "out of memory preparing the WebP picture") }
        picture.writer = WebPMemoryWrite
        let ok = withUnsafeMutablePointer(to: &memory) { writer -> Int32 in
            picture.custom_ptr = UnsafeMutableRawPointer(writer)
            return WebPEncode(&config, &picture)
        }
        guard ok != 0, let mem = memory.mem else {
            throw CodecError(kind: .io, path: path, message: "WebP encoding failed (libwebp error \(picture.error_code.rawValue))")
        }
        return Array(UnsafeBufferPointer(start: mem, count: memory.size))
    }

    /// A WebP file (a still's or an animation's) made extended (VP8X) with the given chunks (ICCP, EXIF, XMP);
    /// libwebpmux orders them.
    static func extended(_ file: [UInt8], chunks: [(String, [UInt8])], path: String) throws -> [UInt8] {
        let mux = file.withUnsafeBufferPointer { bytes -> OpaquePointer? in
            var data = WebPData(bytes: bytes.baseAddress, size: bytes.count)
            return WebPMuxCreateInternal(&data, 1, WEBP_MUX_ABI_VERSION)
        }
        guard let mux else { throw CodecError(kind: .io, path: path, message: "out of memory assembling the WebP file") }
        defer { WebPMuxDelete(mux) }
        var status = WEBP_MUX_OK
        for (fourCC, bytes) in chunks where status == WEBP_MUX_OK {
            status = bytes.withUnsafeBufferPointer { chunk in
                var data = WebPData(bytes: chunk.baseAddress, size: chunk.count)
                return WebPMuxSetChunk(mux, fourCC, &data, 1)
            }
        }
        var assembled = WebPData(bytes: nil, size: 0)
        defer { WebPDataClear(&assembled) }
        if status == WEBP_MUX_OK { status = WebPMuxAssemble(mux, &assembled) }
        guard status == WEBP_MUX_OK, let bytes = assembled.bytes else {
            throw CodecError(kind: .io, path: path, message: "assembling the WebP file failed (libwebpmux error \(status.rawValue))")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: assembled.size))
    }
}
