import FilterCore

/// A codec in the registry (`ImageFileFormat.codecs`): what its `ImageCodec` type declares, read once, with its
/// writer options bound to the field of `Renderer.Options` that holds them — so the renderer opens decoders, makes
/// encoders and animation writers, prices animations and sets a quality without naming any format.
struct RegisteredCodec: @unchecked Sendable {
    let word: String
    let name: String
    let extensions: [String]
    let mediaType: String
    let hasPages: Bool
    let animationHeadBytes: Int?
    let notWrittenReason: String?
    let writesAnimations: Bool
    let animationWriterBytesPerPixel: Double
    let encoderTapsPerPixel: Double
    let encoderTapsPerFrame: Double
    let previewedInBrowsers: Bool
    let takesQuality: Bool
    let effortRange: ClosedRange<Int>?
    let recognises: ([UInt8]) -> Bool
    let isAnimation: ([UInt8]) -> Bool
    let openDecoder: (Int32, String, DecodeLimits) throws -> any ImageDecoder
    let openAnimation: (Int32, String, DecodeLimits) throws -> (any AnimationReader)?
    let carried: (OutputMetadata, inout [String]) -> OutputMetadata?
    /// The format's writer options as a render holds them.
    let writeOptions: (Renderer.Options) -> any CodecWriteOptions
    let makeEncoder: (EncodeRequest, Renderer.Options) throws -> any ImageEncoder
    let makeAnimationWriter: (AnimationWriteRequest, Renderer.Options) throws -> (any AnimationWriter)?
    let setQuality: (inout Renderer.Options, Int) -> Void

    /// A written format, its options in `options`.
    init<C: ImageCodec>(_ codec: C.Type, _ options: WritableKeyPath<Renderer.Options, C.WriteOptions>) {
        self.init(codec,
                  writeOptions: { $0[keyPath: options] },
                  makeEncoder: { request, held in try C.makeEncoder(request, options: held[keyPath: options]) },
                  makeAnimationWriter: { request, held in try C.makeAnimationWriter(request, options: held[keyPath: options]) },
                  setQuality: { held, quality in held[keyPath: options] = held[keyPath: options].withQuality(quality) })
    }

    /// A format read only.
    init<C: ImageCodec>(_ codec: C.Type) where C.WriteOptions == NoWriteOptions {
        self.init(codec,
                  writeOptions: { _ in NoWriteOptions() },
                  makeEncoder: { request, _ in try C.makeEncoder(request, options: NoWriteOptions()) },
                  makeAnimationWriter: { _, _ in nil },
                  setQuality: { _, _ in })
    }

    private init<C: ImageCodec>(_: C.Type, writeOptions: @escaping (Renderer.Options) -> any CodecWriteOptions,
                                makeEncoder: @escaping (EncodeRequest, Renderer.Options) throws -> any ImageEncoder,
                                makeAnimationWriter: @escaping (AnimationWriteRequest, Renderer.Options) throws -> (any AnimationWriter)?,
                                setQuality: @escaping (inout Renderer.Options, Int) -> Void) {
        word = C.word
        name = C.name
        extensions = C.extensions
        mediaType = C.mediaType
        hasPages = C.hasPages
        animationHeadBytes = C.animationHeadBytes
        notWrittenReason = C.notWrittenReason
        writesAnimations = C.writesAnimations
        animationWriterBytesPerPixel = C.animationWriterBytesPerPixel
        encoderTapsPerPixel = C.encoderTapsPerPixel
        encoderTapsPerFrame = C.encoderTapsPerFrame
        previewedInBrowsers = C.previewedInBrowsers
        takesQuality = C.takesQuality
        effortRange = C.effortRange
        recognises = { C.recognises($0) }
        isAnimation = { C.isAnimation($0) }
        openDecoder = { try C.openDecoder(descriptor: $0, name: $1, limits: $2) }
        openAnimation = { try C.openAnimation(descriptor: $0, name: $1, limits: $2) }
        carried = { C.carried($0, warnings: &$1) }
        self.writeOptions = writeOptions
        self.makeEncoder = makeEncoder
        self.makeAnimationWriter = makeAnimationWriter
        self.setQuality = setQuality
    }
}
