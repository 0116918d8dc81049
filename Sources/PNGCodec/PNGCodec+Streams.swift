import FilterCore

extension PNGDecoder: ImageDecoder {
    public var width: Int { header.width }
    public var height: Int { header.height }
    public var format: PixelFormat { header.format }
    public var formatName: String { "PNG" }
}

extension PNGEncoder: ImageRowSink {}
extension PNGEncoder: ImageEncoder {}
