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

    /// ℓ' from the pixel's lightness ℓ and its base b, eight at a time (the CPU's arithmetic; the kernel's is the same).
    @inline(__always)
    package func lightness(_ l: SIMD8<Float>, base: SIMD8<Float>) -> SIMD8<Float> {
        let b = base.replacing(with: 0, where: .!(base .> 0)).replacing(with: 1, where: base .> 1)
        let k = Self.curveScale
        let b1 = b + shadows * k * b * (1 - b) * (1 - b)
        let b2 = b1 - highlights * k * b1 * b1 * (1 - b1)
        return b2 + (1 + detail) * (l - b)
    }
}
