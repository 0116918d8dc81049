/// `pow`, `log2`, `exp2` and rounding on eight lanes at once, for the per-pixel operations: libm's `powf` is a scalar call per
/// sample and was most of a fused colour chain's time. Built from SSE2-level operations only (no rounding or
/// float↔int conversion instructions, which Swift lowers to scalar calls without newer CPU features): integers come
/// from the float's bits and the 1.5·2²³ rounding trick. Relative error below 2·10⁻⁷ for log2's mantissa part and
/// exp2, so `pow` stays within a few float ulps times |y| — far inside every filter's tolerance
/// (`FastMathTests` measures it against Double's `pow`).
package enum FastMath {
    /// 1.5·2²³: adding it rounds a float to an integer held in the low bits of the sum.
    @usableFromInline static let magic: Float = 12_582_912

    /// log₂ x for x > 0 (finite, normal); other lanes give unspecified values.
    @inlinable @inline(__always)
    package static func log2(_ x: SIMD8<Float>) -> SIMD8<Float> {
        let bits = unsafeBitCast(x, to: SIMD8<Int32>.self)
        var exponent = (bits &>> 23) & 0xFF &- 127
        // The mantissa in [1, 2), moved to [√½, √2) so the series below converges fast.
        var mantissa = unsafeBitCast((bits & 0x7F_FFFF) | 0x3F80_0000, to: SIMD8<Float>.self)
        let high = mantissa .> 1.414_213_5
        mantissa = mantissa.replacing(with: mantissa * 0.5, where: high)
        exponent = exponent.replacing(with: exponent &+ 1, where: high)
        // ln m = 2·atanh(s) = 2(s + s³/3 + s⁵/5 + …), s = (m − 1)/(m + 1), |s| ≤ 0.1716.
        let s = (mantissa - 1) / (mantissa + 1), s2 = s * s
        var series: SIMD8<Float> = SIMD8(repeating: 1.0 / 11)
        series = series * s2 + 1.0 / 9
        series = series * s2 + 1.0 / 7
        series = series * s2 + 1.0 / 5
        series = series * s2 + 1.0 / 3
        series = series * s2 + 1
        let lnMantissa = 2 * s * series
        return integerToFloat(exponent) + lnMantissa * 1.442_695_04
    }

    /// 2^y, for y in about [−126, 127] (clamped there: 0 below, large above).
    @inlinable @inline(__always)
    package static func exp2(_ y: SIMD8<Float>) -> SIMD8<Float> {
        var v = y.replacing(with: -126, where: y .< -126)  // (`pointwiseMax` compiles to a scalar loop)
        v = v.replacing(with: 127, where: v .> 127)
        let shifted = v + magic
        let n = unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- unsafeBitCast(SIMD8<Float>(repeating: magic), to: SIMD8<Int32>.self)
        let f = v - (shifted - magic)  // in [−0.5, 0.5]
        // 2^f = e^(f ln 2): Taylor series to the 7th power (error < 2·10⁻⁸ relative on [−½, ½]).
        let t = f * 0.693_147_18
        var p: SIMD8<Float> = SIMD8(repeating: 1.0 / 5040)
        p = p * t + 1.0 / 720
        p = p * t + 1.0 / 120
        p = p * t + 1.0 / 24
        p = p * t + 1.0 / 6
        p = p * t + 0.5
        p = p * t + 1
        p = p * t + 1
        let scale = unsafeBitCast((n &+ 127) &<< 23, to: SIMD8<Float>.self)
        return p * scale
    }

    /// x^p for x ≥ 0 (0^p = 0 for p > 0).
    @inlinable @inline(__always)
    package static func pow(_ x: SIMD8<Float>, _ p: Float) -> SIMD8<Float> {
        let safe = x.replacing(with: 1, where: x .<= 0)
        let result = exp2(log2(safe) * p)
        return result.replacing(with: 0, where: x .<= 0)
    }

    /// sign(x)·|x|^p on every lane.
    @inlinable @inline(__always)
    package static func signedPow(_ x: SIMD8<Float>, _ p: Float) -> SIMD8<Float> {
        let negative = x .< 0
        let magnitude = pow(x.replacing(with: -x, where: negative), p)
        return magnitude.replacing(with: -magnitude, where: negative)
    }

    /// ⌊x⌋ as an integer, for 0 ≤ x < 2²².
    @inlinable @inline(__always)
    package static func floorToInteger(_ x: SIMD8<Float>) -> SIMD8<Int32> {
        let shifted = x + magic
        var n = unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- unsafeBitCast(SIMD8<Float>(repeating: magic), to: SIMD8<Int32>.self)
        n = n.replacing(with: n &- 1, where: shifted - magic .> x)  // rounded up: step back
        return n
    }

    /// x rounded to the nearest integer, halves up, for 0 ≤ x < 2²² (what `posterize` defines).
    @inlinable @inline(__always)
    package static func roundHalfUp(_ x: SIMD8<Float>) -> SIMD8<Float> {
        integerToFloat(floorToInteger(x + 0.5))
    }

    /// Float(n) for |n| < 2²², by the same trick in reverse.
    @inlinable @inline(__always)
    package static func integerToFloat(_ n: SIMD8<Int32>) -> SIMD8<Float> {
        let magicBits = unsafeBitCast(SIMD8<Float>(repeating: magic), to: SIMD8<Int32>.self)
        return unsafeBitCast(n &+ magicBits, to: SIMD8<Float>.self) - magic
    }
}
