import FilterCore

/// How JPEG output is written.
public struct JPEGWriteOptions: Sendable, Equatable {
    public enum Subsampling: Int, Sendable, CaseIterable {
        case s444 = 444, s422 = 422, s420 = 420
    }

    /// 1…100 (default 90).
    public var quality: Int
    /// Chroma subsampling; nil chooses by quality: 4:4:4 at 90 and above (where 4:2:0's colour bleeding shows
    /// beside the fine detail the quality keeps), 4:2:0 below.
    public var subsampling: Subsampling?
    public var progressive: Bool
    /// Huffman tables fitted to the image (a few percent smaller, a little slower).
    public var optimizeCoding: Bool
    /// What transparent pixels are flattened onto (JPEG has no alpha); default white.
    public var background: RGBA

    public init(quality: Int = 90, subsampling: Subsampling? = nil, progressive: Bool = false,
                optimizeCoding: Bool = false, background: RGBA = RGBA(1, 1, 1, 1)) {
        self.quality = quality
        self.subsampling = subsampling
        self.progressive = progressive
        self.optimizeCoding = optimizeCoding
        self.background = background
    }

    public static let `default` = JPEGWriteOptions()

    public var effectiveSubsampling: Subsampling { subsampling ?? (quality >= 90 ? .s444 : .s420) }
}
