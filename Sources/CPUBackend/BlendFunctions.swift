import FilterCore

/// A blend function B(Cb, Cs) of straight colours, chosen at compile time so the pixel loop is specialised.
protocol BlendFunction {
    static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float>
}

enum Blend {
    enum Normal: BlendFunction { static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { cs } }
    enum Multiply: BlendFunction { static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { cb * cs } }
    enum Screen: BlendFunction { static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { cb + cs - cb * cs } }
    enum Overlay: BlendFunction {
        static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { HardLight.apply(cs, cb) }
    }
    enum Darken: BlendFunction { static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { pointwiseMin(cb, cs) } }
    enum Lighten: BlendFunction { static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { pointwiseMax(cb, cs) } }
    enum Difference: BlendFunction {
        static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { let d = cb - cs; return d.replacing(with: -d, where: d .< 0) }
    }
    enum Exclusion: BlendFunction { static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { cb + cs - 2 * cb * cs } }
    enum Add: BlendFunction { static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { pointwiseMin(cb + cs, SIMD4(repeating: 1)) } }
    enum Subtract: BlendFunction { static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { pointwiseMax(cb - cs, SIMD4(repeating: 0)) } }
    enum HardLight: BlendFunction {
        static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
            let multiply = cb * 2 * cs
            let screen = Screen.apply(cb, 2 * cs - 1)
            return multiply.replacing(with: screen, where: cs .> 0.5)
        }
    }
    enum SoftLight: BlendFunction {
        static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
            var out = SIMD4<Float>()
            for c in 0..<4 {
                let b = cb[c], s = cs[c]
                if s <= 0.5 {
                    out[c] = b - (1 - 2 * s) * b * (1 - b)
                } else {
                    let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
                    out[c] = b + (2 * s - 1) * (d - b)
                }
            }
            return out
        }
    }
    enum ColorDodge: BlendFunction {
        static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
            var out = SIMD4<Float>()
            for c in 0..<3 { out[c] = colorDodge(cb[c], cs[c]) }
            return out
        }
    }
    enum ColorBurn: BlendFunction {
        static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
            var out = SIMD4<Float>()
            for c in 0..<3 { out[c] = colorBurn(cb[c], cs[c]) }
            return out
        }
    }
    enum Hue: BlendFunction {
        static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
            setLum(setSat(cs, sat(cb)), lum(cb))
        }
    }
    enum Saturation: BlendFunction {
        static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
            setLum(setSat(cb, sat(cs)), lum(cb))
        }
    }
    enum Color: BlendFunction {
        static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { setLum(cs, lum(cb)) }
    }
    enum Luminosity: BlendFunction {
        static func apply(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { setLum(cb, lum(cs)) }
    }
}

// W3C Compositing and Blending Level 1, §9: the separable dodge and burn (their edge cases widened to ≤ 0 and ≥ 1 so
// wide-gamut values outside 0…1 stay defined) and the non-separable helpers Lum, ClipColor, SetLum, Sat, SetSat.

@inline(__always)
func colorDodge(_ b: Float, _ s: Float) -> Float {
    if b <= 0 { return 0 }
    if s >= 1 { return 1 }
    return min(1, b / (1 - s))
}

@inline(__always)
func colorBurn(_ b: Float, _ s: Float) -> Float {
    if b >= 1 { return 1 }
    if s <= 0 { return 0 }
    return 1 - min(1, (1 - b) / s)
}

@inline(__always)
func lum(_ c: SIMD4<Float>) -> Float { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }

@inline(__always)
func clipColor(_ c: SIMD4<Float>) -> SIMD4<Float> {
    let l = lum(c), n = min(c[0], c[1], c[2]), x = max(c[0], c[1], c[2])
    var out = c
    if n < 0 && l > n { out = SIMD4(repeating: l) + (out - SIMD4(repeating: l)) * (l / (l - n)) }
    if x > 1 && x > l { out = SIMD4(repeating: l) + (out - SIMD4(repeating: l)) * ((1 - l) / (x - l)) }
    return out
}

@inline(__always)
func setLum(_ c: SIMD4<Float>, _ l: Float) -> SIMD4<Float> { clipColor(c + SIMD4(repeating: l - lum(c))) }

@inline(__always)
func sat(_ c: SIMD4<Float>) -> Float { max(c[0], c[1], c[2]) - min(c[0], c[1], c[2]) }

/// The colour with saturation `s` and the same order of channels: max ↦ s, min ↦ 0, mid scaled between.
@inline(__always)
func setSat(_ c: SIMD4<Float>, _ s: Float) -> SIMD4<Float> {
    let hi = max(c[0], c[1], c[2]), lo = min(c[0], c[1], c[2])
    guard hi > lo else { return SIMD4() }
    let scale = s / (hi - lo)
    return SIMD4((c[0] - lo) * scale, (c[1] - lo) * scale, (c[2] - lo) * scale, 0)
}
