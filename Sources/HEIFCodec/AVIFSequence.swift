import CAVIF
import CLazyLibraries
import FilterCore
import Foundation

/// libavif, loaded on first use (`CLazyLibraries`): AVIF image sequences (brand `avis`), which libheif 1.15 reads
/// only as their still primary item and cannot write.
enum AVIFLibrary {
    static func load(for path: String) throws {
        guard fr_lazy_load_avif() != 0 else {
            throw CodecError(kind: .unsupported, path: path, message: "AVIF sequences need libavif, which cannot be loaded "
                + "(\(String(cString: fr_lazy_avif_error()))); on Debian: apt install libavif15")
        }
    }

    static func describe(_ result: avifResult) -> String { String(cString: avifResultToString(result)) }
}

/// An AVIF image sequence read a frame at a time through libavif: each frame converted to 8-bit RGBA (straight
/// alpha, libavif's bilinear chroma upsampling), shown for its own duration. Sequences have no disposal or
/// blending: every frame is whole. libavif 0.11 reports no repetition count, so the sequence plays forever, as
/// browsers play one without an edit list. Holds the file and libavif's current frame.
package final class AVIFSequenceReader: AnimationReader {
    /// Libavif's planes and the RGBA frame.
    package var heldBytesPerPixel: Double { 8 }
    package let path: String
    package let width: Int
    package let height: Int
    package let loopCount = 0
    package let iccProfile: [UInt8]?
    /// The sequence's colour as code points, when it has no ICC profile and they are not sRGB.
    package let codingPoints: ColourCodingPoints?
    /// Frames the file declares.
    package let frameCount: Int
    /// The EXIF and XMP items libavif reads with the sequence.
    package let metadata: ImageMetadata

    private let file: UnsafeMutableRawBufferPointer
    private let decoder: UnsafeMutablePointer<avifDecoder>

    /// Reads from `fd` (owned and closed by the reader, at its start).
    package init(descriptor fd: Int32, name path: String, limits: DecodeLimits) throws {
        self.path = path
        let bytes = try WholePicture.readFile(fd, name: path, limit: limits.maxMemory)
        try AVIFLibrary.load(for: path)
        // libavif reads from memory it does not copy, so the bytes live as long as the decoder.
        let file = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { file.copyMemory(from: $0) }
        guard let decoder = avifDecoderCreate() else {
            file.deallocate()
            throw CodecError(kind: .tooLarge, path: path, message: "out of memory opening the AVIF sequence")
        }
        self.file = file
        self.decoder = decoder
        decoder.pointee.maxThreads = Int32(max(1, min(8, ProcessInfo.processInfo.activeProcessorCount)))
        decoder.pointee.imageSizeLimit = UInt32(clamping: min(limits.maxPixels, 16384 * 16384))
        var result = avifDecoderSetIOMemory(decoder, file.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        if result == AVIF_RESULT_OK { result = avifDecoderParse(decoder) }
        guard result == AVIF_RESULT_OK, let image = decoder.pointee.image else {
            avifDecoderDestroy(decoder)
            file.deallocate()
            throw CodecError(kind: .corrupt, path: path, message: result == AVIF_RESULT_TRUNCATED_DATA
                             ? "truncated: the file ends inside its AVIF sequence" : "corrupt AVIF sequence: \(AVIFLibrary.describe(result))")
        }
        width = Int(image.pointee.width)
        height = Int(image.pointee.height)
        frameCount = Int(decoder.pointee.imageCount)
        let icc = image.pointee.icc
        iccProfile = icc.size > 0 ? Array(UnsafeBufferPointer(start: icc.data, count: icc.size)) : nil
        let points = ColourCodingPoints(primaries: Int(image.pointee.colorPrimaries), transfer: Int(image.pointee.transferCharacteristics))
        codingPoints = iccProfile == nil && !points.isSRGB ? points : nil
        var found = ImageMetadata(orientation: 1, iccProfile: iccProfile)
        let (exif, xmp) = (image.pointee.exif, image.pointee.xmp)
        found.exif = exif.size > 0 ? Exif.tiffStructure(inPayload: Array(UnsafeBufferPointer(start: exif.data, count: exif.size))) : nil
        found.xmp = xmp.size > 0 ? Array(UnsafeBufferPointer(start: xmp.data, count: xmp.size)) : nil
        metadata = found
        // Every stored property is set: from here a throw runs `deinit`, which destroys the decoder and frees the
        // file (freeing them here too destroyed the decoder twice: a crash from any HDR AVIF opened as an animation).
        try limits.checkWhole(path, format: "AVIF", width: width, height: height) { Double($0 * 8) + Double(bytes.count) }
        if points.isHDR && iccProfile == nil {
            throw CodecError(kind: .unsupported, path: path, message: "an HDR AVIF sequence (the BT.2100 "
                             + (points.transfer == 16 ? "PQ" : "HLG") + " curve); its frames are rendered as SDR only: "
                             + "render the first frame alone (without --frames all)")
        }
    }

    deinit {
        avifDecoderDestroy(decoder)
        file.deallocate()
    }

    package func nextFrame() throws -> AnimationFrame? {
        let result = avifDecoderNextImage(decoder)
        if result == AVIF_RESULT_NO_IMAGES_REMAINING { return nil }
        guard result == AVIF_RESULT_OK, let image = decoder.pointee.image else {
            throw CodecError(kind: .corrupt, path: path, message: "corrupt AVIF sequence: frame \(decoder.pointee.imageIndex + 1) "
                             + "of \(frameCount) cannot be decoded (\(AVIFLibrary.describe(result)))")
        }
        guard Int(image.pointee.width) == width, Int(image.pointee.height) == height else {
            throw CodecError(kind: .corrupt, path: path, message: "corrupt AVIF sequence: frame \(decoder.pointee.imageIndex + 1) "
                             + "is \(image.pointee.width)×\(image.pointee.height), not the sequence's \(width)×\(height)")
        }
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = 8
        rgb.chromaUpsampling = AVIF_CHROMA_UPSAMPLING_BILINEAR
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let converted = pixels.withUnsafeMutableBufferPointer { target -> avifResult in
            rgb.pixels = target.baseAddress
            rgb.rowBytes = UInt32(width * 4)
            return avifImageYUVToRGB(image, &rgb)
        }
        guard converted == AVIF_RESULT_OK else {
            throw CodecError(kind: .corrupt, path: path, message: "corrupt AVIF sequence: frame \(decoder.pointee.imageIndex + 1) "
                             + "cannot be converted to RGB (\(AVIFLibrary.describe(converted)))")
        }
        let seconds = decoder.pointee.imageTiming.duration
        return AnimationFrame(pixels: pixels, durationMilliseconds: seconds.isFinite ? Int((seconds * 1000).rounded()) : 0)
    }

    /// Whether a file's major brand says it is an image sequence.
    package static func isSequence(_ head: [UInt8]) -> Bool {
        head.count >= 12 && Array(head[4..<8]) == Array("ftyp".utf8) && Array(head[8..<12]) == Array("avis".utf8)
    }
}

/// An AVIF image sequence written a frame at a time through libavif (AV1 by libaom), 8-bit 4:2:0 lossy or 4:4:4
/// lossless (identity matrix), alpha kept, sRGB code points, durations in milliseconds; published atomically by
/// `finish()`. libavif 0.11 writes no repetition count: the sequence plays forever. EXIF and XMP, when given, are
/// items of the file (libavif takes them from the first frame). Holds the coded frames and the encoder's reference
/// frames, never the raw frames already added.
package final class AnimatedAVIFWriter: AnimationWriter {
    package let output: OutputFile
    package var path: String { output.path }
    private let width: Int, height: Int
    private let options: AVIFWriteOptions
    private var metadata: OutputMetadata?
    private var encoder: UnsafeMutablePointer<avifEncoder>?
    private var published = false

    package init(output: OutputFile, width: Int, height: Int, options: AVIFWriteOptions = .default,
                 metadata: OutputMetadata? = nil) throws {
        self.output = output
        self.metadata = metadata
        self.width = width
        self.height = height
        self.options = options
        do {
            try AVIFEncoder.validate(options, format: .rgba8, width: width, height: height, path: output.path)
            guard options.bitDepth == 8 else {
                throw CodecError(kind: .invalidRequest, path: output.path, message: "AVIF sequences are written at 8 bits here "
                                 + "(the frames are 8-bit); leave the bit depth at 8")
            }
            try AVIFLibrary.load(for: output.path)
            guard let encoder = avifEncoderCreate() else {
                throw CodecError(kind: .tooLarge, path: output.path, message: "out of memory starting the AVIF sequence")
            }
            self.encoder = encoder
        } catch {
            output.abandon()
            throw error
        }
        let encoder = encoder!
        encoder.pointee.maxThreads = Int32(max(1, min(8, ProcessInfo.processInfo.activeProcessorCount)))
        encoder.pointee.speed = Int32(9 - options.effort)
        encoder.pointee.timescale = 1000
        // libavif 1.0's mapping of quality to AV1's quantizer (0 best … 63 worst).
        let quantizer = options.lossless ? 0 : Int32(((100 - options.quality) * 63 + 50) / 100)
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = options.lossless ? 0 : max(0, quantizer - 10)
        encoder.pointee.maxQuantizerAlpha = options.lossless ? 0 : max(0, quantizer - 10)
    }

    deinit {
        if let encoder { avifEncoderDestroy(encoder) }
        if !published { output.abandon() }
    }

    package func add(rgba pixels: UnsafeRawPointer, durationMilliseconds: Int) throws {
        guard let encoder else { throw CodecError(kind: .invalidRequest, path: path, message: "the animation is finished") }
        let format = options.lossless ? AVIF_PIXEL_FORMAT_YUV444 : (options.chroma == "444" ? AVIF_PIXEL_FORMAT_YUV444
            : options.chroma == "422" ? AVIF_PIXEL_FORMAT_YUV422 : AVIF_PIXEL_FORMAT_YUV420)
        guard let image = avifImageCreate(UInt32(width), UInt32(height), 8, format) else {
            throw CodecError(kind: .tooLarge, path: path, message: "out of memory preparing an AVIF frame")
        }
        defer { avifImageDestroy(image) }
        image.pointee.colorPrimaries = UInt16(AVIF_COLOR_PRIMARIES_BT709)
        image.pointee.transferCharacteristics = UInt16(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
        image.pointee.matrixCoefficients = UInt16(options.lossless ? AVIF_MATRIX_COEFFICIENTS_IDENTITY : AVIF_MATRIX_COEFFICIENTS_BT601)
        image.pointee.yuvRange = AVIF_RANGE_FULL
        if let metadata {
            // The first frame carries them. libavif reads the EXIF orientation into the file's own transform, as
            // viewers of the input would have turned it.
            if let exif = metadata.exif { exif.withUnsafeBufferPointer { avifImageSetMetadataExif(image, $0.baseAddress, $0.count) } }
            if let xmp = metadata.xmp { xmp.withUnsafeBufferPointer { avifImageSetMetadataXMP(image, $0.baseAddress, $0.count) } }
            self.metadata = nil
        }
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = 8
        rgb.pixels = UnsafeMutablePointer(mutating: pixels.assumingMemoryBound(to: UInt8.self))
        rgb.rowBytes = UInt32(width * 4)
        var result = avifImageRGBToYUV(image, &rgb)
        if result == AVIF_RESULT_OK {
            result = avifEncoderAddImage(encoder, image, UInt64(max(1, durationMilliseconds)), avifAddImageFlags(AVIF_ADD_IMAGE_FLAG_NONE.rawValue))
        }
        guard result == AVIF_RESULT_OK else {
            throw CodecError(kind: .io, path: path, message: "AVIF sequence encoding failed adding a frame: \(AVIFLibrary.describe(result))")
        }
    }

    package func finish() throws {
        guard let encoder else { throw CodecError(kind: .invalidRequest, path: path, message: "the animation is finished") }
        defer { avifEncoderDestroy(encoder); self.encoder = nil }
        var data = avifRWData(data: nil, size: 0)
        defer { avifRWDataFree(&data) }
        let result = avifEncoderFinish(encoder, &data)
        guard result == AVIF_RESULT_OK, let bytes = data.data else {
            output.abandon()
            throw CodecError(kind: .io, path: path, message: "AVIF sequence encoding failed: \(AVIFLibrary.describe(result))")
        }
        try WholePicture.publish(Array(UnsafeBufferPointer(start: bytes, count: data.size)), to: output)
        published = true
    }
}
