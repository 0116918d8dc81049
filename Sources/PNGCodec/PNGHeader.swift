import FilterCore

/// What a PNG's header says, read without decoding any pixel.
public struct PNGHeader: Sendable, Equatable {
    public enum ColorType: Int, Sendable {
        case grey = 0, rgb = 2, palette = 3, greyAlpha = 4, rgba = 6
    }

    public let width: Int
    public let height: Int
    public let colorType: ColorType
    /// Bits per sample as stored (1, 2, 4, 8 or 16).
    public let bitDepth: Int
    public let interlaced: Bool
    /// A tRNS chunk is present (adds an alpha channel when decoded).
    public let hasTransparency: Bool
    /// The format rows decode to: depths below 8 expand to 8, palettes to RGB(A), tRNS to an alpha channel.
    public let format: PixelFormat
}
