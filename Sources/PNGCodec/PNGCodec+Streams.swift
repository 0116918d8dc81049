import FilterCore

extension PNGDecoder: ImageRowSource {
    public var width: Int { header.width }
    public var height: Int { header.height }
    public var format: PixelFormat { header.format }
}

extension PNGEncoder: ImageRowSink {}
