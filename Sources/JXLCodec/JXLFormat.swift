import FilterCore

/// JPEG XL as the registry knows it (`ImageCodec`): stills and animations, floats and PQ, read and written.
package enum JXLFormat: ImageCodec {
    package static let word = "jxl", name = "JPEG XL", extensions = ["jxl"], mediaType = "image/jxl"
    package static let effortRange: ClosedRange<Int>? = 1...9
    package static let takesQuality = true
    /// A JPEG XL header (after any boxes before the codestream) lies in the first 64 KiB.
    package static let animationHeadBytes: Int? = 1 << 16
    package static let writesAnimations = true
    /// Peak less the reader's share on a 4096² animation of two frames: 175 B/px, with a margin.
    package static let animationWriterBytesPerPixel = 190.0
    /// ~390 measured (libjxl).
    package static let encoderTapsPerPixel = 400.0

    /// A bare codestream, or the ISOBMFF container with its "JXL " signature box.
    package static func recognises(_ head: [UInt8]) -> Bool {
        head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
    }

    package static func isAnimation(_ head: [UInt8]) -> Bool { JXLAnimationReader.isAnimation(head) }

    package static func openDecoder(descriptor: Int32, name: String, limits: DecodeLimits) throws -> any ImageDecoder {
        try JXLDecoder(descriptor: descriptor, name: name, limits: limits)
    }

    package static func openAnimation(descriptor: Int32, name: String, limits: DecodeLimits) throws -> (any AnimationReader)? {
        try JXLAnimationReader(descriptor: descriptor, name: name, limits: limits)
    }

    /// Floats keep the light and PQ its coding, both untagged; 16-bit rows carry PQ.
    package static func makeEncoder(_ request: EncodeRequest, options: JXLWriteOptions) throws -> any ImageEncoder {
        let format = request.pq ? PixelFormat.integer(channels: request.format.hasAlpha ? 4 : 3, depth: 16)! : request.format
        return try JXLEncoder(output: request.output, width: request.width, height: request.height, format: format,
                              options: options, icc: request.floats || request.pq ? nil : request.icc,
                              metadata: request.metadata, floats: request.floats, pq: request.pq)
    }

    package static func makeAnimationWriter(_ request: AnimationWriteRequest, options: JXLWriteOptions) throws -> (any AnimationWriter)? {
        try AnimatedJXLWriter(output: request.output, width: request.width, height: request.height,
                              loopCount: request.loopCount, options: options, metadata: request.metadata)
    }
}

extension JXLWriteOptions: CodecWriteOptions {
    package var codedBytesPerPixel: Double { lossless ? 4 : 1.5 }
    package func withQuality(_ quality: Int) -> Self { var options = self; options.quality = quality; return options }
}
