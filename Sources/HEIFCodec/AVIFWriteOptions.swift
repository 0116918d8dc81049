/// How AVIF outputs are encoded (AV1 through libheif and libaom).
public struct AVIFWriteOptions: Sendable, Equatable {
    /// 1…100: lossy quality (default 50, as libvips and sharp).
    public var quality: Int
    /// Every pixel kept: RGB coded as is (no YCbCr matrix), 4:4:4.
    public var lossless: Bool
    /// 0…9: encoding effort, slower for smaller files (default 4, as sharp; libaom's speed is 9 − effort).
    public var effort: Int
    /// 8, 10 or 12 bits a sample (default 8; 10 and 12 keep more of a 16-bit or HDR result).
    public var bitDepth: Int
    /// Chroma subsampling of lossy files: "420" (default) or "444" (sharper colour edges, larger files).
    public var chroma: String

    public init(quality: Int = 50, lossless: Bool = false, effort: Int = 4, bitDepth: Int = 8, chroma: String = "420") {
        self.quality = quality
        self.lossless = lossless
        self.effort = effort
        self.bitDepth = bitDepth
        self.chroma = chroma
    }

    public static let `default` = AVIFWriteOptions()
}
