import FilterCore

/// A fused chain of per-pixel operations: each chunk of rows is unpremultiplied once, every operation runs over it
/// while it is in cache, and it is premultiplied back.
final class PointStage: Stage {
    let ops: [PointOp]

    init(_ ops: [PointOp], node: Plan.Node, stats: RenderStats) {
        self.ops = ops
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, height = height, ops = ops
        parallelRows(rows) { chunk in
            for y in chunk {
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                PointKernel.run(ops, from: input.pixels(y), to: out, y: y, width: width, height: height)
            }
        }
    }
}

/// Row kernels of the point operations: the choice of operation is made once per row, not per pixel.
enum PointKernel {
    /// Unpremultiplies row `y` of `source` into `out`, applies `ops`, premultiplies back (`source` may be `out`).
    static func run(_ ops: [PointOp], from source: UnsafeMutablePointer<SIMD4<Float>>,
                    to out: UnsafeMutablePointer<SIMD4<Float>>, y: Int, width: Int, height: Int) {
        for x in 0..<width {
            let v = source[x], a = v[3]
            var straight = a != 0 ? v / a : SIMD4<Float>(repeating: 0)  // negative alpha (ringing) round-trips too
            straight[3] = a
            out[x] = straight
        }
        for op in ops { apply(op, out, y: y, width: width, height: height) }
        for x in 0..<width {
            var v = out[x]
            let a = v[3]
            v *= a
            v[3] = a
            out[x] = v
        }
    }

    static func apply(_ op: PointOp, _ p: UnsafeMutablePointer<SIMD4<Float>>, y: Int, width: Int, height: Int) {
        switch op {
        case .matrix(let m):
            let (c0, c1, c2, c3) = m.columns
            let offset = m.offset
            for x in 0..<width {
                let v = p[x]
                var out = offset
                out += c0 * v[0]
                out += c1 * v[1]
                out += c2 * v[2]
                out += c3 * v[3]
                p[x] = out
            }
        case .posterize(let levels):
            let n = levels - 1
            for x in 0..<width {
                var v = p[x]
                var c = v.replacing(with: 0, where: v .< 0)
                c = c.replacing(with: 1, where: c .> 1)
                c = (c * n).rounded(.toNearestOrAwayFromZero) / n
                v[0] = c[0]; v[1] = c[1]; v[2] = c[2]
                p[x] = v
            }
        case .curves, .gamma, .levels, .threshold, .vibrance, .vignette, .clearTransparent, .clamp:
            for x in 0..<width { p[x] = op.apply(p[x], x: x, y: y, width: width, height: height) }
        }
    }
}
