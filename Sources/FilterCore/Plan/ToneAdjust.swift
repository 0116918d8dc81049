/// Local tone: a pixel's lightness moved by where it sits in the picture rather than by its own value alone
/// (Durand & Dorsey's base and detail, SIGGRAPH 2002, on sRGB-encoded luminance instead of its logarithm). The
/// second input is the base: an edge-aware smoothing of the lightness ℓ = sRGB-encode(Y). With b that base (clamped
/// to [0, 1]) and k = 27/16:
///
///     b₁ = b + shadows·k·b(1 − b)²          lifts the dark side of the base, most at b = ⅓ (by shadows/4)
///     b₂ = b₁ − highlights·k·b₁²(1 − b₁)    lowers the light side, most at b₁ = ⅔
///     ℓ' = b₂ + (1 + detail)(ℓ − b)         puts the detail back, scaled
///
/// (both curves increase for amounts up to 1), then scales the colour by Y'/Y, Y' = sRGB-decode(max(ℓ', 0)), so hue
/// and saturation stay; a black pixel becomes the grey Y'. Straight colour; alpha kept.
package struct ToneAdjust: Equatable, Sendable {
    package var shadows: Float
    package var highlights: Float
    package var detail: Float
    /// Working values are sRGB-encoded (the recipe's sRGB working space): decoded for Y, encoded after.
    package var encodedWorkingSpace: Bool

    package init(shadows: Float = 0, highlights: Float = 0, detail: Float = 0, encodedWorkingSpace: Bool = false) {
        self.shadows = shadows
        self.highlights = highlights
        self.detail = detail
        self.encodedWorkingSpace = encodedWorkingSpace
    }

    package static let curveScale: Float = 27.0 / 16
}
