/// How GIF outputs are written: each frame's palette chosen by libimagequant (pngquant's quantiser), with
/// Floyd–Steinberg-style dithering.
public struct GIFWriteOptions: Sendable, Equatable {
    /// 2…256: the most colours a frame's palette holds (default 256).
    public var colours: Int
    /// 0…1: how much error diffusion hides the palette's steps (default 1, libimagequant's full dithering; 0 maps
    /// each pixel to its nearest colour).
    public var dither: Double
    /// 0…9: effort spent choosing the palette (default 6; libimagequant's speed is 10 − effort, at least 1).
    public var effort: Int

    public init(colours: Int = 256, dither: Double = 1, effort: Int = 6) {
        self.colours = colours
        self.dither = dither
        self.effort = effort
    }

    public static let `default` = GIFWriteOptions()
}
