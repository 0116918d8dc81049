/// How one pixel is stored. Integer formats hold sRGB-encoded, straight (unpremultiplied) values, as PNG does;
/// the float formats hold working-space values (linear light, premultiplied alpha, unless the recipe says sRGB).
public enum PixelFormat: String, CaseIterable, Sendable, Codable {
    case grey8, greyA8, rgb8, rgba8
    case grey16, greyA16, rgb16, rgba16
    case rgba16f, rgba32f

    /// Samples per pixel.
    public var channels: Int {
        switch self {
        case .grey8, .grey16: return 1
        case .greyA8, .greyA16: return 2
        case .rgb8, .rgb16: return 3
        case .rgba8, .rgba16, .rgba16f, .rgba32f: return 4
        }
    }

    /// Bytes per sample.
    public var bytesPerSample: Int {
        switch self {
        case .grey8, .greyA8, .rgb8, .rgba8: return 1
        case .grey16, .greyA16, .rgb16, .rgba16, .rgba16f: return 2
        case .rgba32f: return 4
        }
    }

    public var bytesPerPixel: Int { channels * bytesPerSample }
    public var hasAlpha: Bool { channels == 2 || channels == 4 }
    public var isFloat: Bool { self == .rgba16f || self == .rgba32f }
    /// Bits per integer sample (8 or 16); float formats answer their storage width.
    public var depth: Int { bytesPerSample * 8 }

    /// The integer format with the given channel count (1–4) and depth (8 or 16).
    public static func integer(channels: Int, depth: Int) -> PixelFormat? {
        switch (channels, depth) {
        case (1, 8): return .grey8
        case (2, 8): return .greyA8
        case (3, 8): return .rgb8
        case (4, 8): return .rgba8
        case (1, 16): return .grey16
        case (2, 16): return .greyA16
        case (3, 16): return .rgb16
        case (4, 16): return .rgba16
        default: return nil
        }
    }
}
