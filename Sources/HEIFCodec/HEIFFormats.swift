import FilterCore
import Foundation

/// The HEIF family's formats, told apart by the major brand of an ISOBMFF file: AV1 is AVIF; HEVC and the generic
/// image brands (whose codec libheif finds in the file) are HEIC.
enum HEIFBrand {
    static func major(_ head: [UInt8]) -> String? {
        guard head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) else { return nil }
        return String(decoding: head[8..<12], as: UTF8.self)
    }
    static let avif: Set = ["avif", "avis"]
    static let heic: Set = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1", "mif2"]
}

/// AVIF as the registry knows it (`ImageCodec`): stills and image sequences, read and written.
package enum AVIFFormat: ImageCodec {
    package static let word = "avif", name = "AVIF", extensions = ["avif"], mediaType = "image/avif"
    package static let effortRange: ClosedRange<Int>? = 0...9
    package static let previewedInBrowsers = true
    package static let takesQuality = true
    /// The brand (`avis`: an image sequence) is in the first 12 bytes.
    package static let animationHeadBytes: Int? = 12
    package static let writesAnimations = true
    /// Peak less the reader's share on a 4096² animation of two frames: 284 B/px (libaom's lookahead frames).
    package static let animationWriterBytesPerPixel = 300.0
    /// ~75 measured (libaom).
    package static let encoderTapsPerPixel = 100.0
    /// libaom's frame set-up and rate control: 5000 frames of 256² from JPEG XL took 104 s here, 20.8 ms a frame of
    /// which its pixels account for ~8 ms; the rest, ~12 ms ≈ 10⁷ taps at 0.8·10⁹ taps/s, is each frame's own.
    package static let encoderTapsPerFrame = 1e7

    package static func recognises(_ head: [UInt8]) -> Bool { HEIFBrand.major(head).map(HEIFBrand.avif.contains) ?? false }
    package static func isAnimation(_ head: [UInt8]) -> Bool { AVIFSequenceReader.isSequence(head) }

    /// What libheif 1.15 cannot read as a still (a sequence of tracks alone, a layered image's operating point)
    /// libavif may: the file is read again through it, when it can be, before the error stands.
    package static func openDecoder(descriptor: Int32, name: String, limits: DecodeLimits) throws -> any ImageDecoder {
        let again = dup(descriptor)
        defer { if again >= 0 { close(again) } }
        do { return try HEIFDecoder(descriptor: descriptor, name: name, limits: limits) } catch let error as CodecError
            where (error.kind == .corrupt || error.kind == .unsupported) && again >= 0 && lseek(again, 0, SEEK_SET) == 0 {
            guard let fallback = try? AVIFFirstFrameDecoder(descriptor: dup(again), name: name, limits: limits) else { throw error }
            return fallback
        }
    }

    package static func openAnimation(descriptor: Int32, name: String, limits: DecodeLimits) throws -> (any AnimationReader)? {
        try AVIFSequenceReader(descriptor: descriptor, name: name, limits: limits)
    }

    /// HDR kept as PQ is written as 16-bit rows of PQ-coded BT.2020 (H.273 primaries 9, transfer 16), untagged;
    /// everything else as sRGB (1, 13) with the output's profile.
    package static func makeEncoder(_ request: EncodeRequest, options: AVIFWriteOptions) throws -> any ImageEncoder {
        let format = request.pq ? PixelFormat.integer(channels: request.format.hasAlpha ? 4 : 3, depth: 16)! : request.format
        return try AVIFEncoder(output: request.output, width: request.width, height: request.height, format: format,
                               options: options, icc: request.pq ? nil : request.icc, metadata: request.metadata,
                               codingPoints: request.pq ? ColourCodingPoints(primaries: 9, transfer: 16)
                                   : ColourCodingPoints(primaries: 1, transfer: 13))
    }

    package static func makeAnimationWriter(_ request: AnimationWriteRequest, options: AVIFWriteOptions) throws -> (any AnimationWriter)? {
        try AnimatedAVIFWriter(output: request.output, width: request.width, height: request.height, options: options,
                               metadata: request.metadata)
    }
}

extension AVIFWriteOptions: CodecWriteOptions {
    package var reducedToEightBitsNote: String? {
        bitDepth == 8 ? "note: AVIF is written at 8 bits a sample unless asked for more (\(SettingName.avifBitDepth)); the "
            + "16-bit result is reduced to 8" : nil
    }
    package var codedBytesPerPixel: Double { lossless ? 4 : 1.5 }
    package func withQuality(_ quality: Int) -> Self { var options = self; options.quality = quality; return options }
}

/// HEIC as the registry knows it (`ImageCodec`): read, never written.
package enum HEICFormat: ImageCodec {
    package typealias WriteOptions = NoWriteOptions
    package static let word = "heic", name = "HEIC", extensions = ["heic", "heif", "hif"], mediaType = "image/heic"

    package static func recognises(_ head: [UInt8]) -> Bool { HEIFBrand.major(head).map(HEIFBrand.heic.contains) ?? false }

    package static func openDecoder(descriptor: Int32, name: String, limits: DecodeLimits) throws -> any ImageDecoder {
        try HEIFDecoder(descriptor: descriptor, name: name, limits: limits)
    }

    /// Its HEVC encoder is patent-encumbered, and AVIF is the modern output for the same photos.
    package static let notWrittenReason: String? = "HEIC is read but not written (its HEVC encoder is patent-encumbered); "
        + "write AVIF (.avif), the same family's modern format"

    package static func makeEncoder(_ request: EncodeRequest, options: NoWriteOptions) throws -> any ImageEncoder {
        throw OutputError(.unknownFormat, path: request.output.path, notWrittenReason ?? "")
    }

    package static func carried(_ metadata: OutputMetadata, warnings: inout [String]) -> OutputMetadata? {
        warnings.append("note: HEIC outputs do not carry EXIF or XMP yet; \(SettingName.keepMetadata) has no effect on them")
        return nil
    }
}
