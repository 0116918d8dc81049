import Foundation

/// One file format as its codec module declares it: how its files are told, opened and written, what it carries
/// and what writing it costs. Each codec module holds one conforming type per format (`PNGFormat`, `WebPFormat`…);
/// FilterRecipe's registry (`ImageFileFormat.codecs`) lists them, and the renderer, the animation path, the batch
/// runner, filterserve's negotiation and the docs' format table read them there — nothing outside a codec module
/// switches over formats.
package protocol ImageCodec {
    /// What its writer is told beyond the pixels (`Renderer.Options` holds one of these for each format).
    associatedtype WriteOptions: CodecWriteOptions

    /// The format's word: `ImageFileFormat`'s raw value and the first of the words `--format` takes ("webp").
    static var word: String { get }
    /// Its name in messages ("WebP").
    static var name: String { get }
    /// Extensions that name it, lowercase, the usual one first.
    static var extensions: [String] { get }
    /// Its media type ("image/webp").
    static var mediaType: String { get }
    /// Whether `head` (a file's first 16 bytes) starts a file of this format.
    static func recognises(_ head: [UInt8]) -> Bool
    /// Whether its files may hold several pages (`--page`).
    static var hasPages: Bool { get }
    /// A decoder for the file on `descriptor` (owned by it from now on), at the file's start.
    static func openDecoder(descriptor: Int32, name: String, limits: DecodeLimits) throws -> any ImageDecoder

    /// How many of a file's first bytes tell whether it is an animation (`framesIn`), 0 when every file of the
    /// format is read frame by frame with `--frames all` (a still one as one frame), nil when none is.
    static var animationHeadBytes: Int? { get }
    /// Whether a file starting with `head` (`animationHeadBytes` of it) is an animation.
    static func isAnimation(_ head: [UInt8]) -> Bool
    /// The frames of the file on `descriptor` (owned by it from now on); nil for a format read as a still only.
    static func openAnimation(descriptor: Int32, name: String, limits: DecodeLimits) throws -> (any AnimationReader)?

    /// Why outputs cannot be written in the format, naming the fix; nil when they can.
    static var notWrittenReason: String? { get }
    /// Its encoder for one still.
    static func makeEncoder(_ request: EncodeRequest, options: WriteOptions) throws -> any ImageEncoder
    /// What a still output carries of `metadata` (an input's EXIF and XMP), noting in `warnings` what the format
    /// cannot hold; nil for nothing.
    static func carried(_ metadata: OutputMetadata, warnings: inout [String]) -> OutputMetadata?
    /// Whether animations are written in it (`makeAnimationWriter` makes a writer).
    static var writesAnimations: Bool { get }
    /// Its animation writer, nil where the format is not written as an animation.
    static func makeAnimationWriter(_ request: AnimationWriteRequest, options: WriteOptions) throws -> (any AnimationWriter)?
    /// Bytes its animation writer holds for each output pixel (the encoder's canvases and candidates), measured.
    static var animationWriterBytesPerPixel: Double { get }
    /// Pixel-taps each output pixel of each frame costs its animation encoder, measured (BENCHMARKS.md, "Hostile
    /// files"), so `--max-work` bounds an animation's time.
    static var encoderTapsPerPixel: Double { get }
    /// Pixel-taps each frame costs its animation encoder whatever its size (set-up, rate control), measured.
    static var encoderTapsPerFrame: Double { get }
    /// Whether the playground previews in it: every current browser shows it in full colour.
    static var previewedInBrowsers: Bool { get }
    /// Whether its encoder takes a quality (1–100).
    static var takesQuality: Bool { get }
    /// The encoder efforts it takes (`--effort`), nil for none.
    static var effortRange: ClosedRange<Int>? { get }
}

extension ImageCodec {
    package static var hasPages: Bool { false }
    package static var animationHeadBytes: Int? { nil }
    package static func isAnimation(_ head: [UInt8]) -> Bool { animationHeadBytes == 0 }
    package static func openAnimation(descriptor: Int32, name: String, limits: DecodeLimits) throws -> (any AnimationReader)? {
        close(descriptor)
        return nil
    }
    package static var notWrittenReason: String? { nil }
    package static func carried(_ metadata: OutputMetadata, warnings: inout [String]) -> OutputMetadata? { metadata }
    package static var writesAnimations: Bool { false }
    package static func makeAnimationWriter(_ request: AnimationWriteRequest, options: WriteOptions) throws -> (any AnimationWriter)? { nil }
    package static var animationWriterBytesPerPixel: Double { 24 }
    package static var encoderTapsPerPixel: Double { 60 }
    package static var encoderTapsPerFrame: Double { 0 }
    package static var previewedInBrowsers: Bool { false }
    package static var takesQuality: Bool { false }
    package static var effortRange: ClosedRange<Int>? { nil }
}

/// What a format's writer options say to the rest of the engine.
package protocol CodecWriteOptions: Sendable {
    /// The note given when a 16-bit result is written in fewer bits (nil when the format keeps 16).
    var reducedToEightBitsNote: String? { get }
    /// The note given when a result with alpha is written without it (nil when the format keeps alpha).
    var flattenedAlphaNote: String? { get }
    /// Bytes of coded output each frame pixel adds to what an animation writer holds until the file is written (0
    /// where frames go to the file as they come).
    var codedBytesPerPixel: Double { get }
    /// The options with the encoder's quality set (1–100), where the format has one.
    func withQuality(_ quality: Int) -> Self
}

extension CodecWriteOptions {
    package var reducedToEightBitsNote: String? { nil }
    package var flattenedAlphaNote: String? { nil }
    package var codedBytesPerPixel: Double { 1.5 }
    package func withQuality(_ quality: Int) -> Self { self }
}

/// A format read but not written has none.
package struct NoWriteOptions: CodecWriteOptions {
    package init() {}
}

/// What an encoder for one still is made with beside its options.
package struct EncodeRequest {
    package var output: OutputFile
    package var width: Int
    package var height: Int
    /// The samples' layout handed to the encoder.
    package var format: PixelFormat
    /// The output profile to embed (nil: sRGB, untagged or tagged as the format does).
    package var icc: [UInt8]?
    package var metadata: OutputMetadata?
    /// Rows of linear floats (TIFF and JPEG XL keep the light).
    package var floats: Bool
    /// HDR kept as PQ (AVIF at 10 or 12 bits, JPEG XL at 16): 16-bit rows of PQ-coded BT.2020.
    package var pq: Bool
    /// The codec's own plan for its planes (a JPEG moved or resampled on the file's planes), where it has one.
    package var planes: (any Sendable)?

    package init(output: OutputFile, width: Int, height: Int, format: PixelFormat, icc: [UInt8]?, metadata: OutputMetadata?,
                 floats: Bool = false, pq: Bool = false, planes: (any Sendable)? = nil) {
        self.output = output
        self.width = width
        self.height = height
        self.format = format
        self.icc = icc
        self.metadata = metadata
        self.floats = floats
        self.pq = pq
        self.planes = planes
    }
}

/// What an animation writer is made with beside its options.
package struct AnimationWriteRequest {
    package var output: OutputFile
    package var width: Int
    package var height: Int
    /// Plays: 0 forever, n plays n times (the reader's count).
    package var loopCount: Int
    package var metadata: OutputMetadata?

    package init(output: OutputFile, width: Int, height: Int, loopCount: Int, metadata: OutputMetadata?) {
        self.output = output
        self.width = width
        self.height = height
        self.loopCount = loopCount
        self.metadata = metadata
    }
}
