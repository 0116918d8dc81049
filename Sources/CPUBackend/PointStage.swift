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

/// Row kernels of the point operations: a row goes through in blocks of `block` pixels, each unpremultiplied, taken
/// through every operation and premultiplied back while it is in registers and L1, instead of one pass over the
/// whole row per operation. The choice of operation is made once per block, not per pixel.
enum PointKernel {
    static let block = 32

    /// Unpremultiplies row `y` of `source` into `out`, applies `ops`, premultiplies back (`source` may be `out`).
    static func run(_ ops: [PointOp], from source: UnsafeMutablePointer<SIMD4<Float>>,
                    to out: UnsafeMutablePointer<SIMD4<Float>>, y: Int, width: Int, height: Int) {
        var start = 0
        while start < width {
            let end = min(start + block, width)
            for x in start..<end {
                let v = source[x], a = v[3]
                var straight = a != 0 ? v / a : SIMD4<Float>(repeating: 0)  // negative alpha (ringing) round-trips too
                straight[3] = a
                out[x] = straight
            }
            for op in ops { apply(op, out, x: start..<end, y: y, width: width, height: height) }
            for x in start..<end {
                var v = out[x]
                let a = v[3]
                v *= a
                v[3] = a
                out[x] = v
            }
            start = end
        }
    }

    static func apply(_ op: PointOp, _ p: UnsafeMutablePointer<SIMD4<Float>>, x pixels: Range<Int>, y: Int,
                      width: Int, height: Int) {
        switch op {
        case .matrix(let m):
            let (c0, c1, c2, c3) = m.columns
            let offset = m.offset
            for x in pixels {
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
            for x in pixels {
                var v = p[x]
                var c = v.replacing(with: 0, where: v .< 0)
                c = c.replacing(with: 1, where: c .> 1)
                c = (c * n).rounded(.toNearestOrAwayFromZero) / n
                v[0] = c[0]; v[1] = c[1]; v[2] = c[2]
                p[x] = v
            }
        case .curves, .gamma, .levels, .threshold, .vibrance, .vignette, .clearTransparent, .clamp:
            for x in pixels { p[x] = op.apply(p[x], x: x, y: y, width: width, height: height) }
        }
    }
}
