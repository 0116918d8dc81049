/// How WebP outputs are encoded.
public struct WebPWriteOptions: Sendable, Equatable {
    /// 1…100: lossy quality (default 80, as sharp and imgproxy); with `lossless`, how hard to compress.
    public var quality: Int
    /// Every pixel kept exactly (VP8L) instead of lossy VP8.
    public var lossless: Bool
    /// 0…100: with `lossless`, how far pixels may move to compress better (100, the default, moves none).
    public var nearLossless: Int
    /// 0…6: encoding effort, slower for smaller files (default 4, libwebp's).
    public var effort: Int
    /// 0…100: quality of the alpha plane in lossy files (default 100: alpha kept losslessly).
    public var alphaQuality: Int

    public init(quality: Int = 80, lossless: Bool = false, nearLossless: Int = 100, effort: Int = 4, alphaQuality: Int = 100) {
        self.quality = quality
        self.lossless = lossless
        self.nearLossless = nearLossless
        self.effort = effort
        self.alphaQuality = alphaQuality
    }

    public static let `default` = WebPWriteOptions()
}
