import Foundation

/// How JPEG XL outputs are encoded (libjxl).
public struct JXLWriteOptions: Sendable, Equatable {
    /// 1…100: lossy quality, mapped to libjxl's distance as cjxl maps it (default 90: distance 1, "visually
    /// lossless").
    public var quality: Int
    /// Every sample kept (modular mode, the original colour space).
    public var lossless: Bool
    /// 1…9: encoding effort, slower for smaller files (default 7, libjxl's).
    public var effort: Int

    public init(quality: Int = 90, lossless: Bool = false, effort: Int = 7) {
        self.quality = quality
        self.lossless = lossless
        self.effort = effort
    }

    public static let `default` = JXLWriteOptions()

    /// cjxl's quality-to-distance mapping: 0.1 + (100 − q) × 0.09 from quality 30 up, steeper below.
    var distance: Float {
        let q = Double(quality)
        let d = q >= 30 ? 0.1 + (100 - q) * 0.09 : 6.4 + pow(2.5, (30 - q) / 5) / 6.25
        return Float(min(max(d, 0.1), 25))
    }
}
