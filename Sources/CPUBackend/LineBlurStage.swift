import FilterCore

/// Motion and zoom blurs (`Primitive.lineBlur`): each output pixel the mean of bilinear samples along its segment,
/// `LineBlur.samples(atX:y:)` giving where, in the same float32 order as the Vulkan kernel.
final class LineBlurStage: Stage {
    let blur: LineBlur

    init(_ blur: LineBlur, node: Plan.Node, stats: RenderStats) {
        self.blur = blur
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, height = height, blur = blur
        parallelRows(rows) { chunk in
            for y in chunk {
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<width {
                    let s = blur.samples(atX: Float(x), y: Float(y))
                    var sum = SIMD4<Float>()
                    for k in 0..<s.count {
                        sum += Self.bilinear(input, x: s.x0 + s.stepX * Float(k), y: s.y0 + s.stepY * Float(k),
                                             width: width, height: height)
                    }
                    out[x] = sum / Float(s.count)
                }
            }
        }
    }

    /// The bilinear sample at (x, y) in pixel indices, its four taps clamped to the image.
    @inline(__always)
    static func bilinear(_ input: RowView, x: Float, y: Float, width: Int, height: Int) -> SIMD4<Float> {
        let fx = x.rounded(.down), fy = y.rounded(.down)
        let tx = x - fx, ty = y - fy
        let ix = Int(fx), iy = Int(fy)
        let x0 = min(max(ix, 0), width - 1), x1 = min(max(ix + 1, 0), width - 1)
        let top = input.pixels(min(max(iy, 0), height - 1)), bottom = input.pixels(min(max(iy + 1, 0), height - 1))
        let upper = top[x0] * (1 - tx) + top[x1] * tx
        let lower = bottom[x0] * (1 - tx) + bottom[x1] * tx
        return upper * (1 - ty) + lower * ty
    }
}
