import FilterCore

/// JPEG as the registry knows it (`ImageCodec`).
package enum JPEGFormat: ImageCodec {
    package static let word = "jpeg", name = "JPEG", extensions = ["jpg", "jpeg"], mediaType = "image/jpeg"
    package static let previewedInBrowsers = true
    package static let takesQuality = true

    package static func recognises(_ head: [UInt8]) -> Bool { head.starts(with: [0xFF, 0xD8, 0xFF]) }

    package static func openDecoder(descriptor: Int32, name: String, limits: DecodeLimits) throws -> any ImageDecoder {
        try JPEGDecoder(descriptor: descriptor, name: name, limits: limits)
    }

    package static func makeEncoder(_ request: EncodeRequest, options: JPEGWriteOptions) throws -> any ImageEncoder {
        try JPEGEncoder(output: request.output, width: request.width, height: request.height, format: request.format,
                        options: options, icc: request.icc, metadata: request.metadata,
                        planes: request.planes as? JPEGPlaneLayout)
    }

    /// One APP1 segment for EXIF; XMP in one, or as a JPEG input's standard packet and its extension.
    package static func carried(_ metadata: OutputMetadata, warnings: inout [String]) -> OutputMetadata? {
        var carried = metadata
        if let exif = carried.exif, exif.count > JPEGEncoder.maxExifBytes {
            warnings.append("note: the input's EXIF (\(exif.count) bytes) does not fit a JPEG APP1 segment; it is left out")
            carried.exif = nil
        }
        if let xmp = carried.xmp, xmp.count > JPEGEncoder.maxXMPBytes {
            if let split = carried.extendedXMP, split.standard.count <= JPEGEncoder.maxXMPBytes {
                carried.xmp = split.standard
            } else {
                warnings.append("note: the input's XMP (\(xmp.count) bytes) does not fit a JPEG APP1 segment and was not "
                                + "read as standard and extended XMP; it is left out")
                carried.xmp = nil
                carried.extendedXMP = nil
            }
        } else {
            carried.extendedXMP = nil
        }
        return carried
    }
}

extension JPEGWriteOptions: CodecWriteOptions {
    package var reducedToEightBitsNote: String? { "note: JPEG stores 8 bits a sample; the 16-bit result is reduced to 8" }
    package var flattenedAlphaNote: String? {
        "note: JPEG has no alpha; transparent pixels are flattened onto "
            + (background == .white ? "white" : String(format: "[%.3g, %.3g, %.3g]", background.r, background.g, background.b))
            + " (\(SettingName.background))"
    }
    package func withQuality(_ quality: Int) -> Self { var options = self; options.quality = quality; return options }
}
