import FilterCore

extension PNGDecoder: ImageDecoder {
    package var width: Int { header.width }
    package var height: Int { header.height }
    package var format: PixelFormat { header.format }
    package var formatName: String { "PNG" }
    package var fileWarnings: [String] { colourWarnings }
}

extension PNGEncoder: ImageRowSink {}
extension PNGEncoder: ImageEncoder {}
