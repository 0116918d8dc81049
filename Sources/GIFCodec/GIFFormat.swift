import FilterCore

/// GIF as the registry knows it (`ImageCodec`): stills and animations, read and written.
package enum GIFFormat: ImageCodec {
    package static let word = "gif", name = "GIF", extensions = ["gif"], mediaType = "image/gif"
    package static let effortRange: ClosedRange<Int>? = 0...9
    /// Every GIF is read frame by frame with `--frames all` (a still one as one frame).
    package static let animationHeadBytes: Int? = 0
    package static let writesAnimations = true
    /// Measured on a 4096² animation of two frames: 20 B/px, with a margin.
    package static let animationWriterBytesPerPixel = 24.0
    /// ~50 measured (libimagequant).
    package static let encoderTapsPerPixel = 60.0

    package static func recognises(_ head: [UInt8]) -> Bool {
        head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8))
    }

    package static func openDecoder(descriptor: Int32, name: String, limits: DecodeLimits) throws -> any ImageDecoder {
        try GIFDecoder(descriptor: descriptor, name: name, limits: limits)
    }

    package static func openAnimation(descriptor: Int32, name: String, limits: DecodeLimits) throws -> (any AnimationReader)? {
        try GIFAnimationReader(descriptor: descriptor, name: name, limits: limits)
    }

    package static func makeEncoder(_ request: EncodeRequest, options: GIFWriteOptions) throws -> any ImageEncoder {
        try GIFEncoder(output: request.output, width: request.width, height: request.height, format: request.format,
                       options: options, metadata: request.metadata)
    }

    /// XMP in its application extension; GIF has no place for EXIF.
    package static func carried(_ metadata: OutputMetadata, warnings: inout [String]) -> OutputMetadata? {
        var carried = metadata
        if carried.exif != nil { warnings.append("note: GIF has no place for EXIF; the input's EXIF is left out (its XMP is kept)") }
        carried.exif = nil
        return carried.xmp == nil ? nil : carried
    }

    package static func makeAnimationWriter(_ request: AnimationWriteRequest, options: GIFWriteOptions) throws -> (any AnimationWriter)? {
        try AnimatedGIFWriter(output: request.output, width: request.width, height: request.height,
                              loopCount: request.loopCount, options: options, xmp: request.metadata?.xmp)
    }
}

extension GIFWriteOptions: CodecWriteOptions {
    package var reducedToEightBitsNote: String? { "note: GIF stores 8 bits a sample; the 16-bit result is reduced to 8" }
    /// Frames go to the file as they come.
    package var codedBytesPerPixel: Double { 0 }
}
