import FilterCore

/// Resamples each row to the node's width.
final class HorizontalResampleStage: Stage {
    let weights: ResampleWeights

    init(kernel: ResampleKernel, inputWidth: Int, node: Plan.Node, stats: RenderStats) {
        weights = ResampleWeights(kernel: kernel, inSize: inputWidth, outSize: node.width)
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, taps = weights.taps
        weights.indices.withUnsafeBufferPointer { indices in
            weights.weights.withUnsafeBufferPointer { w in
                parallelRows(rows) { chunk in
                    for y in chunk {
                        let src = input.pixels(y)
                        let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                            .assumingMemoryBound(to: SIMD4<Float>.self)
                        for x in 0..<width {
                            var sum = SIMD4<Float>()
                            let base = x * taps
                            for t in 0..<taps { sum += src[Int(indices[base + t])] * w[base + t] }
                            out[x] = sum
                        }
                    }
                }
            }
        }
    }
}

/// Resamples columns to the node's height: each output row is a weighted sum of input rows.
final class VerticalResampleStage: Stage {
    let weights: ResampleWeights

    init(kernel: ResampleKernel, inputHeight: Int, node: Plan.Node, stats: RenderStats) {
        weights = ResampleWeights(kernel: kernel, inSize: inputHeight, outSize: node.height)
        super.init(node: node, stats: stats)
    }

    override func inputRows(for rows: Range<Int>, input: Int) -> Range<Int> { weights.inputRange(for: rows) }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], n = width * 4, taps = weights.taps
        weights.indices.withUnsafeBufferPointer { indices in
            weights.weights.withUnsafeBufferPointer { w in
                parallelRows(rows) { chunk in
                    for y in chunk {
                        let out = output + (y - rows.lowerBound) * n
                        out.update(repeating: 0, count: n)
                        for t in 0..<taps {
                            let weight = w[y * taps + t]
                            if weight == 0 { continue }
                            let src = input.row(Int(indices[y * taps + t]))
                            for i in 0..<n { out[i] += weight * src[i] }
                        }
                    }
                }
            }
        }
    }
}
