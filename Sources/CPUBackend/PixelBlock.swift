import FilterCore

/// Eight pixels of straight colour, one vector a channel. The per-pixel operations run on these: every instruction
/// works on eight pixels, no lane is spent on alpha, and the three channels are independent chains the CPU overlaps
/// (one pixel's `SIMD4` at a time left `pow`'s long dependency chain waiting on itself).
package struct PixelBlock {
    /// In memory channel after channel, eight floats each (r at 0, g at 8, b at 16, a at 24): the transposes and
    /// the curves' table reads rely on it.
    package var r, g, b, a: SIMD8<Float>

    @inlinable
    package init(r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// Eight premultiplied pixels from `p`, unpremultiplied (colour 0 where alpha is 0; a negative alpha from
    /// ringing round-trips like any other).
    @inlinable @inline(__always)
    package init(unpremultiplying p: UnsafePointer<SIMD4<Float>>) {
        let low = Self.transpose(p[0], p[1], p[2], p[3]), high = Self.transpose(p[4], p[5], p[6], p[7])
        a = SIMD8(lowHalf: low.3, highHalf: high.3)
        let zero = a .== 0
        r = (SIMD8(lowHalf: low.0, highHalf: high.0) / a).replacing(with: 0, where: zero)
        g = (SIMD8(lowHalf: low.1, highHalf: high.1) / a).replacing(with: 0, where: zero)
        b = (SIMD8(lowHalf: low.2, highHalf: high.2) / a).replacing(with: 0, where: zero)
    }

    /// Premultiplies the eight pixels and stores them at `p`.
    @inlinable @inline(__always)
    package func storePremultiplied(_ p: UnsafeMutablePointer<SIMD4<Float>>) {
        let r = r * a, g = g * a, b = b * a
        let low = Self.transpose(r.lowHalf, g.lowHalf, b.lowHalf, a.lowHalf)
        let high = Self.transpose(r.highHalf, g.highHalf, b.highHalf, a.highHalf)
        p[0] = low.0; p[1] = low.1; p[2] = low.2; p[3] = low.3
        p[4] = high.0; p[5] = high.1; p[6] = high.2; p[7] = high.3
    }

    /// The 4×4 transpose of four rows, written as the interleaves SSE has (unpcklps/unpckhps, movlhps/movhlps),
    /// which the compiler recognises; gathering lane by lane compiled to loads and inserts twice as slow.
    @inlinable @inline(__always)
    static func transpose(_ p0: SIMD4<Float>, _ p1: SIMD4<Float>, _ p2: SIMD4<Float>, _ p3: SIMD4<Float>)
        -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let t0 = SIMD4(p0[0], p1[0], p0[1], p1[1]), t1 = SIMD4(p2[0], p3[0], p2[1], p3[1])
        let t2 = SIMD4(p0[2], p1[2], p0[3], p1[3]), t3 = SIMD4(p2[2], p3[2], p2[3], p3[3])
        return (SIMD4(t0[0], t0[1], t1[0], t1[1]), SIMD4(t0[2], t0[3], t1[2], t1[3]),
                SIMD4(t2[0], t2[1], t3[0], t3[1]), SIMD4(t2[2], t2[3], t3[2], t3[3]))
    }

    /// Rec. 709 luminance of each pixel.
    @inlinable
    package var luminance: SIMD8<Float> {
        r * ColorMatrix.luma[0] + g * ColorMatrix.luma[1] + b * ColorMatrix.luma[2]
    }

    /// Applies `body` to each colour channel.
    @inlinable
    package mutating func mapColour(_ body: (SIMD8<Float>) -> SIMD8<Float>) {
        r = body(r); g = body(g); b = body(b)
    }
}
