import FilterCore

/// What a PNG's header says, read without decoding any pixel.
package struct PNGHeader: Sendable, Equatable {
    package enum ColorType: Int, Sendable {
        case grey = 0, rgb = 2, palette = 3, greyAlpha = 4, rgba = 6
    }

    package let width: Int
    package let height: Int
    package let colorType: ColorType
    /// Bits per sample as stored (1, 2, 4, 8 or 16).
    package let bitDepth: Int
    package let interlaced: Bool
    /// A tRNS chunk is present (adds an alpha channel when decoded).
    package let hasTransparency: Bool
    /// The format rows decode to: depths below 8 expand to 8, palettes to RGB(A), tRNS to an alpha channel.
    package let format: PixelFormat
}
