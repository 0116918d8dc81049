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
    @inlinable
    package init(unpremultiplying p: UnsafePointer<SIMD4<Float>>) {
        let f = UnsafeRawPointer(p).assumingMemoryBound(to: Float.self)
        a = SIMD8(f[3], f[7], f[11], f[15], f[19], f[23], f[27], f[31])
        let zero = a .== 0
        r = (SIMD8(f[0], f[4], f[8], f[12], f[16], f[20], f[24], f[28]) / a).replacing(with: 0, where: zero)
        g = (SIMD8(f[1], f[5], f[9], f[13], f[17], f[21], f[25], f[29]) / a).replacing(with: 0, where: zero)
        b = (SIMD8(f[2], f[6], f[10], f[14], f[18], f[22], f[26], f[30]) / a).replacing(with: 0, where: zero)
    }

    /// Premultiplies the eight pixels and stores them at `p`.
    @inlinable
    package func storePremultiplied(_ p: UnsafeMutablePointer<SIMD4<Float>>) {
        let r = r * a, g = g * a, b = b * a
        for i in 0..<8 { p[i] = SIMD4(r[i], g[i], b[i], a[i]) }
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
