import CWebP
import FilterCore
import Foundation

/// WebP reader (libwebp): lossy (VP8) and lossless (VP8L), with or without alpha, the extended format's ICCP and
/// EXIF chunks (the profile converts colour, the orientation turns the image), and animations, whose first frame is
/// read composed onto its canvas as a viewer shows it. libwebp decodes a whole picture at once, so the decoder
/// holds the file and its decoded pixels (4 bytes a pixel with alpha, 3 without), refused beyond `maxMemory`
/// before anything is decoded.
package final class WebPDecoder: DescriptorDecoder {
    package let path: String
    package let formatName = "WebP"
    /// The size rows are delivered at: the stored size, or ⌈stored / f⌉ after `reduce(by: f)`.
    package private(set) var width: Int
    package private(set) var height: Int
    package let storedWidth: Int
    package let storedHeight: Int
    /// rgb8, or rgba8 when the file has alpha.
    package let format: PixelFormat
    package let metadata: ImageMetadata
    package let isAnimated: Bool
    package let isLossless: Bool
    /// Frames in the file (1 for a still image).
    package let frameCount: Int
    package var nextRow: Int { boxes?.nextRow ?? held.nextRow }
    package var fileWarnings: [String] { isAnimated ? [CodecError.firstFrameNote(path, frames: frameCount)] : [] }
    package var decodingBytes: Double {
        // A reduced lossy still holds a band of rows; everything else the whole picture.
        boxes.map { Double($0.width * 3 * $0.factor * 64 + file.count) }
            ?? Double(width * height * format.bytesPerPixel + (isLossless ? storedWidth * storedHeight * 4 : 0) + file.count)
    }

    package var decodingHolds: String {
        boxes == nil ? "decoded pixels (the WebP decoder holds its picture whole)" : "decoded rows (a band of the picture)"
    }

    let file: [UInt8]
    private var held = HeldPicture()
    /// A lossy still reduced while it decodes (`reduce(by:)`), read a band at a time.
    private var boxes: WebPBoxStream?

    /// Reads from `fd` (owned and closed by the decoder, at its start); `name` is what messages call it.
    package init(descriptor fd: Int32, name path: String, limits: DecodeLimits) throws {
        self.path = path
        file = try WholePicture.readFile(fd, name: path, limit: limits.maxMemory)
        let header = try WebPHeader(file, path: path)
        width = header.width
        height = header.height
        storedWidth = width
        storedHeight = height
        let flags = header.flags
        frameCount = header.frameCount
        isAnimated = flags & UInt32(ANIMATION_FLAG.rawValue) != 0 || frameCount > 1
        var features = WebPBitstreamFeatures()
        let status = file.withUnsafeBufferPointer { WebPGetFeaturesInternal($0.baseAddress, $0.count, &features, WEBP_DECODER_ABI_VERSION) }
        isLossless = status == VP8_STATUS_OK && features.format == 2
        let alpha = flags & UInt32(ALPHA_FLAG.rawValue) != 0 || (status == VP8_STATUS_OK && features.has_alpha != 0)
        format = alpha ? .rgba8 : .rgb8
        // A WebP EXIF chunk holds the TIFF structure, sometimes behind JPEG's "Exif\0\0".
        let exif = header.exif.flatMap(Exif.tiffStructure(inPayload:))
        var found = ImageMetadata(orientation: exif.map(Exif.orientation) ?? 1, iccProfile: header.icc)
        found.exif = exif
        found.xmp = header.xmp
        metadata = found

        // A lossless picture is decoded whole into libwebp's own ARGB words (4 bytes a stored pixel, fewer when its
        // palette packs pixels) before it reaches ours; an animation's first frame through two canvases.
        let held = isAnimated ? 12 : format.bytesPerPixel + (isLossless ? 4 : 0), fileBytes = file.count
        try limits.checkWhole(path, format: "WebP", width: width, height: height) { Double($0 * held + fileBytes) }
    }

    /// Lossy stills without alpha decode at 1/2 … 1/8 by box-averaging libwebp's rows as they arrive (`WebPBoxStream`:
    /// exactly the full decode's box means, a band of rows resident at a time); lossless ones at any smaller size through libwebp's rescaler, which averages the decoded planes over
    /// each output pixel's area before the conversion to RGB. Alpha images are left whole: the rescaler weighs colour
    /// by alpha, which the engine's model of a box reduction does not.
    package var decodeReductions: DecodeReductions {
        guard !isAnimated && !format.hasAlpha else { return .none }
        if !isLossless { return DecodeReductions(factors: Array(2...8), method: .decodedBoxes, how: "by box-averaging libwebp's rows as they decode") }
        return DecodeReductions(factors: [], method: .wholeRescale, rescales: true, how: "by libwebp's rescaler")
    }

    package func reduce(by factor: Int) throws {
        if !isLossless {
            guard decodeReductions.factors.contains(factor), nextRow == 0, !held.isDecoded, boxes == nil else {
                throw CodecError(kind: .invalidRequest, path: path, message: "WebP cannot decode at 1/\(factor) here")
            }
            let stream = try WebPBoxStream(file: file, path: path, width: storedWidth, height: storedHeight, factor: factor)
            boxes = stream
            width = stream.width
            height = stream.height
            return
        }
        try reduce(toWidth: (storedWidth + factor - 1) / max(1, factor), height: (storedHeight + factor - 1) / max(1, factor))
    }

    package func reduce(toWidth width: Int, height: Int) throws {
        if !isLossless, let factor = decodeReductions.factors.first(where: {
            (storedWidth + $0 - 1) / $0 == width && (storedHeight + $0 - 1) / $0 == height
        }) {
            return try reduce(by: factor)
        }
        guard decodeReductions.rescales, nextRow == 0, !held.isDecoded, (1...storedWidth).contains(width),
              (1...storedHeight).contains(height) else {
            throw CodecError(kind: .invalidRequest, path: path, message: "WebP cannot decode at \(width)×\(height) here")
        }
        self.width = width
        self.height = height
    }

    package func readRows(into destination: UnsafeMutableRawPointer, stride: Int, count: Int) throws {
        if let boxes {
            guard count >= 0, boxes.nextRow + count <= height else {
                throw CodecError(kind: .invalidRequest, path: path, message: "rows \(boxes.nextRow)..<\(boxes.nextRow + count) asked of \(height)")
            }
            return try boxes.read(into: destination, rowStride: stride, count: count, failure: failure)
        }
        _ = try held.read(path, height: height, rowBytes: width * format.bytesPerPixel, into: destination,
                          stride: stride, count: count, decode: decode)
    }

    /// The whole picture, decoded (an animation's first frame on its canvas).
    private func decode() throws -> [UInt8] {
        isAnimated ? try decodeFirstFrame() : try decodeStill()
    }

    private func decodeStill() throws -> [UInt8] {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfigInternal(&config, WEBP_DECODER_ABI_VERSION) != 0 else {
            throw CodecError(kind: .unsupported, path: path, message: "the WebP library's version does not match its headers")
        }
        let channels = format.bytesPerPixel
        var out = [UInt8](repeating: 0, count: width * height * channels)
        let status: VP8StatusCode = out.withUnsafeMutableBufferPointer { target in
            config.output.colorspace = channels == 4 ? MODE_RGBA : MODE_RGB
            // Lossy pictures filter on a second thread while the first decodes (libwebp's own parallelism).
            config.options.use_threads = RenderLoad.saturated ? 0 : 1  // a thread an image, not under load
            if width != storedWidth || height != storedHeight {
                config.options.use_scaling = 1
                config.options.scaled_width = Int32(width)
                config.options.scaled_height = Int32(height)
            }
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = target.baseAddress
            config.output.u.RGBA.stride = Int32(width * channels)
            config.output.u.RGBA.size = target.count
            return file.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
        }
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw failure(status) }
        return out
    }

    private func decodeFirstFrame() throws -> [UInt8] {
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInitInternal(&options, WEBP_DEMUX_ABI_VERSION) != 0 else {
            throw CodecError(kind: .unsupported, path: path, message: "the WebP library's version does not match its headers")
        }
        options.color_mode = MODE_RGBA
        return try file.withUnsafeBufferPointer { bytes -> [UInt8] in
            var data = WebPData(bytes: bytes.baseAddress, size: bytes.count)
            guard let decoder = WebPAnimDecoderNewInternal(&data, &options, WEBP_DEMUX_ABI_VERSION) else {
                throw CodecError(kind: .corrupt, path: path, message: "corrupt WebP animation: its frames cannot be read")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var frame: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
                throw CodecError(kind: .corrupt, path: path, message: "corrupt WebP animation: its first frame cannot be decoded")
            }
            let rgba = UnsafeBufferPointer(start: frame, count: width * height * 4)
            guard format == .rgb8 else { return Array(rgba) }
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            for p in 0..<(width * height) {
                rgb[3 * p] = rgba[4 * p]; rgb[3 * p + 1] = rgba[4 * p + 1]; rgb[3 * p + 2] = rgba[4 * p + 2]
            }
            return rgb
        }
    }

    func failure(_ status: VP8StatusCode) -> CodecError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA:
            return CodecError(kind: .corrupt, path: path, message: "truncated: the file ends inside its WebP image data")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            return CodecError(kind: .unsupported, path: path, message: "a WebP feature this WebP library does not decode")
        case VP8_STATUS_OUT_OF_MEMORY:
            return CodecError(kind: .tooLarge, path: path, message: "out of memory decoding the WebP image")
        default:
            return CodecError(kind: .corrupt, path: path, message: "corrupt WebP image data (libwebp status \(status.rawValue))")
        }
    }
}
