import FilterCore
import Foundation

/// WebP as the registry knows it (`ImageCodec`): stills and animations, read and written.
package enum WebPFormat: ImageCodec {
    package static let word = "webp", name = "WebP", extensions = ["webp"], mediaType = "image/webp"
    package static let previewedInBrowsers = true
    package static let effortRange: ClosedRange<Int>? = 0...6
    package static let takesQuality = true
    /// Every WebP is read frame by frame with `--frames all` (a still one as one frame).
    package static let animationHeadBytes: Int? = 0
    package static let writesAnimations = true
    /// Measured on a 4096² animation of two frames: 20 B/px, with a margin.
    package static let animationWriterBytesPerPixel = 24.0
    /// ~58 measured (lossy, 4096²).
    package static let encoderTapsPerPixel = 60.0

    package static func recognises(_ head: [UInt8]) -> Bool {
        head.count >= 12 && head.starts(with: Array("RIFF".utf8)) && Array(head[8..<12]) == Array("WEBP".utf8)
    }

    package static func openDecoder(descriptor: Int32, name: String, limits: DecodeLimits) throws -> any ImageDecoder {
        try WebPDecoder(descriptor: descriptor, name: name, limits: limits)
    }

    package static func openAnimation(descriptor: Int32, name: String, limits: DecodeLimits) throws -> (any AnimationReader)? {
        try WebPAnimationReader(descriptor: descriptor, name: name, limits: limits)
    }

    package static func makeEncoder(_ request: EncodeRequest, options: WebPWriteOptions) throws -> any ImageEncoder {
        try WebPEncoder(output: request.output, width: request.width, height: request.height, format: request.format,
                        options: options, icc: request.icc, metadata: request.metadata)
    }

    package static func makeAnimationWriter(_ request: AnimationWriteRequest, options: WebPWriteOptions) throws -> (any AnimationWriter)? {
        try AnimatedWebPWriter(output: request.output, width: request.width, height: request.height,
                               loopCount: request.loopCount, options: options, metadata: request.metadata)
    }
}

extension WebPWriteOptions: CodecWriteOptions {
    package var reducedToEightBitsNote: String? { "note: WebP stores 8 bits a sample; the 16-bit result is reduced to 8" }
    package var codedBytesPerPixel: Double { lossless ? 4 : 1.5 }
    package func withQuality(_ quality: Int) -> Self { var options = self; options.quality = quality; return options }
}
