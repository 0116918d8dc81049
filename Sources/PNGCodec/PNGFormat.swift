import FilterCore

/// PNG as the registry knows it (`ImageCodec`).
package enum PNGFormat: ImageCodec {
    package static let word = "png", name = "PNG", extensions = ["png"], mediaType = "image/png"
    package static let previewedInBrowsers = true

    package static func recognises(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    package static func openDecoder(descriptor: Int32, name: String, limits: DecodeLimits) throws -> any ImageDecoder {
        try PNGDecoder(descriptor: descriptor, name: name, maxPixels: limits.maxPixels, maxMemory: limits.maxMemory)
    }

    package static func makeEncoder(_ request: EncodeRequest, options: PNGWriteOptions) throws -> any ImageEncoder {
        try PNGEncoder(output: request.output, width: request.width, height: request.height, format: request.format,
                       options: options, icc: request.icc, tagSRGB: true, metadata: request.metadata)
    }
}

extension PNGWriteOptions: CodecWriteOptions {}
