import FilterCore

/// TIFF as the registry knows it (`ImageCodec`): pages read, stills written.
package enum TIFFFormat: ImageCodec {
    package static let word = "tiff", name = "TIFF", extensions = ["tif", "tiff"], mediaType = "image/tiff"
    package static let hasPages = true

    /// Classic TIFF (42) and BigTIFF (43), either byte order.
    package static func recognises(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || head.starts(with: [0x49, 0x49, 0x2B, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2B])
    }

    package static func openDecoder(descriptor: Int32, name: String, limits: DecodeLimits) throws -> any ImageDecoder {
        try TIFFDecoder(descriptor: descriptor, name: name, limits: limits)
    }

    /// XMP goes in the XMLPacket tag; EXIF is rewritten field by field into the file's own Exif and GPS directories
    /// (the maker note, whose inner offsets would not survive the move, is left out). A float TIFF is not tagged
    /// with an output profile: its values are linear light.
    package static func makeEncoder(_ request: EncodeRequest, options: TIFFWriteOptions) throws -> any ImageEncoder {
        try TIFFEncoder(output: request.output, width: request.width, height: request.height, format: request.format,
                        options: options, icc: request.floats ? nil : request.icc, metadata: request.metadata,
                        floats: request.floats)
    }
}

extension TIFFWriteOptions: CodecWriteOptions {}
