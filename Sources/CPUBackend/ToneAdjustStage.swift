import FilterCore

/// Local tone (`Primitive.toneAdjust`): eight pixels at a time, the lightness of each pixel's luminance moved against
/// its base (`ToneAdjust.lightness`) and the colour scaled to the new luminance.
final class ToneAdjustStage: Stage {
    let tone: ToneAdjust

    init(_ tone: ToneAdjust, node: Plan.Node, stats: RenderStats) {
        self.tone = tone
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let image = inputs[0], base = inputs[1], width = width, tone = tone
        parallelRows(rows) { chunk in
            for y in chunk {
                let a = image.pixels(y), b = base.pixels(y)
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                var x = 0
                while x < width {
                    let lanes = min(8, width - x)
                    var r = SIMD8<Float>(), g = SIMD8<Float>(), bl = SIMD8<Float>(), alpha = SIMD8<Float>()
                    var level = SIMD8<Float>()
                    for i in 0..<lanes {
                        let v = a[x + i], w = b[x + i]
                        let straight = v[3] > 0 ? v / v[3] : SIMD4()
                        (r[i], g[i], bl[i], alpha[i]) = (straight[0], straight[1], straight[2], v[3])
                        level[i] = w[3] > 0 ? w[0] / w[3] : w[0]
                    }
                    if tone.encodedWorkingSpace {
                        (r, g, bl) = (PointOp.srgbDecoded(r), PointOp.srgbDecoded(g), PointOp.srgbDecoded(bl))
                    }
                    let luminance = 0.2126 * r + 0.7152 * g + 0.0722 * bl
                    let lightness = PointOp.srgbEncoded(luminance)
                    let moved = tone.lightness(lightness, base: level)
                    let target = PointOp.srgbDecoded(moved.replacing(with: 0, where: moved .< 0))
                    let dark = .!(luminance .> 0)
                    let ratio = (target / luminance).replacing(with: 0, where: dark)
                    r = (r * ratio).replacing(with: target, where: dark)
                    g = (g * ratio).replacing(with: target, where: dark)
                    bl = (bl * ratio).replacing(with: target, where: dark)
                    if tone.encodedWorkingSpace {
                        (r, g, bl) = (PointOp.srgbEncoded(r), PointOp.srgbEncoded(g), PointOp.srgbEncoded(bl))
                    }
                    for i in 0..<lanes { out[x + i] = SIMD4(r[i] * alpha[i], g[i] * alpha[i], bl[i] * alpha[i], alpha[i]) }
                    x += lanes
                }
            }
        }
    }
}

extension ToneAdjust {
    /// ℓ' from the pixel's lightness ℓ and its base b, eight at a time (the CPU's arithmetic; the kernel's is the same).
    @inline(__always)
    func lightness(_ l: SIMD8<Float>, base: SIMD8<Float>) -> SIMD8<Float> {
        let b = base.replacing(with: 0, where: .!(base .> 0)).replacing(with: 1, where: base .> 1)
        let k = Self.curveScale
        let b1 = b + shadows * k * b * (1 - b) * (1 - b)
        let b2 = b1 - highlights * k * b1 * b1 * (1 - b1)
        return b2 + (1 + detail) * (l - b)
    }
}
