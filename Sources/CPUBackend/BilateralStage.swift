import CKernels
import FilterCore

/// The bilateral filter (`Primitive.bilateral`), tap by tap over each row: every tap's likeness weights for eight
/// pixels at once through `FastMath.exp2` (or `fr_bilateral_tap_avx2`, the same series in AVX2 registers), its weighted values added to the output row and its weights to a row of
/// norms, which divide at the end. Taps that fall outside the image are left out (the x range shrinks; a row outside
/// is skipped). Taps in `Bilateral.taps`' order, as the Vulkan kernel sums them.
final class BilateralStage: Stage {
    let bilateral: Bilateral
    private let taps: [(dx: Int, dy: Int, weight: Float)]

    init(_ bilateral: Bilateral, node: Plan.Node, stats: RenderStats) {
        self.bilateral = bilateral
        taps = bilateral.taps
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, height = height, taps = taps, scale = -bilateral.rangeScale
        let avx2 = fr_kernels_avx2() != 0
        parallelRows(rows) { chunk in
            let norms = UnsafeMutablePointer<Float>.allocate(capacity: width)
            defer { norms.deallocate() }
            for y in chunk {
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                let centre = input.pixels(y)
                out.update(from: centre, count: width)  // the centre tap: weight 1
                norms.update(repeating: 1, count: width)
                for tap in taps.dropFirst() {
                    let sy = y + tap.dy
                    guard sy >= 0, sy < height else { continue }
                    let row = input.pixels(sy) + tap.dx
                    var x = max(0, -tap.dx)
                    let end = min(width, width - tap.dx)
                    if avx2, end > x {
                        func floats(_ p: UnsafeMutablePointer<SIMD4<Float>>) -> UnsafeMutablePointer<Float> {
                            UnsafeMutableRawPointer(p).assumingMemoryBound(to: Float.self)
                        }
                        x += fr_bilateral_tap_avx2(floats(out + x), norms + x, floats(row + x), floats(centre + x),
                                                   end - x, tap.weight, scale)
                    }
                    while x < end {
                        let lanes = min(8, end - x)
                        var distances = SIMD8<Float>()
                        for i in 0..<lanes {
                            let d = row[x + i] - centre[x + i], q = d * d
                            distances[i] = (q[0] + q[1]) + (q[2] + q[3])
                        }
                        let weights = FastMath.exp2(distances * scale) * tap.weight
                        for i in 0..<lanes {
                            out[x + i] += row[x + i] * weights[i]
                            norms[x + i] += weights[i]
                        }
                        x += lanes
                    }
                }
                for x in 0..<width { out[x] /= norms[x] }
            }
        }
    }
}
