import CKernels
import FilterCore

/// Resamples each row to the node's width.
final class HorizontalResampleStage: Stage {
    let weights: ResampleWeights
    /// Converts the input's stored samples to working values, a row at a time in cache, when the node reads them
    /// (`Plan.Node.readsSamples`): the conversion a strip of its own would make, without the strip.
    let samples: PixelConverter?
    let inputWidth: Int

    init(kernel: ResampleKernel, inputWidth: Int, reduced: BoxReduction?, samples: PixelConverter?, node: Plan.Node,
         stats: RenderStats) {
        weights = ResampleWeights(kernel: kernel, inSize: inputWidth, outSize: node.width, reduced: reduced)
        self.samples = samples
        self.inputWidth = inputWidth
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, taps = weights.taps, samples = samples, inputWidth = inputWidth
        weights.indices.withUnsafeBufferPointer { indices in
            weights.weights.withUnsafeBufferPointer { w in
                parallelRows(rows) { chunk in
                    let scratch = samples.map { _ in UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: inputWidth) }
                    defer { scratch?.deallocate() }
                    for y in chunk {
                        var src = input.pixels(y)
                        if let samples, let scratch {
                            samples.decode(input.bytes(y), into: UnsafeMutableRawPointer(scratch)
                                .assumingMemoryBound(to: Float.self), width: inputWidth)
                            src = scratch
                        }
                        if fr_kernels_avx2() != 0 {
                            fr_horizontal_resample_avx2(output + (y - rows.lowerBound) * width * 4,
                                                        UnsafeMutableRawPointer(src).assumingMemoryBound(to: Float.self),
                                                        indices.baseAddress, w.baseAddress, Int32(taps), width)
                            continue
                        }
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

/// Resamples columns to the node's height: each output row is a weighted sum of input rows. A shrink accumulates:
/// it pulls its input a few rows at a time and adds each row into every output row it weighs on, so a 15× shrink
/// holds a handful of input rows, never the ~90-row window a Lanczos tap set spans (whose sliding, row by row, cost
/// more than the arithmetic).
final class VerticalResampleStage: Stage {
    let weights: ResampleWeights
    /// Input rows with nonzero weight for each output row, when the stage accumulates (a shrink whose rows' spans
    /// leave no input row unread between them); nil for the windowed pass.
    private let spans: [ClosedRange<Int>]?
    private var accumulator: RowAccumulator?

    /// Samples a pixel when the input arrives as 8-bit samples without alpha, in the sRGB working space
    /// (`Plan.Node.readsSamples`, as the resample's description allows).
    private let sampleChannels: Int?

    init(kernel: ResampleKernel, inputHeight: Int, reduced: BoxReduction?, input: Plan.Node, node: Plan.Node,
         stats: RenderStats) {
        weights = ResampleWeights(kernel: kernel, inSize: inputHeight, outSize: node.height, reduced: reduced)
        spans = inputHeight > node.height ? Self.contiguousSpans(weights) : nil
        if node.readsSamples, case .samples(let format, _) = input.representation {
            sampleChannels = format.channels
        } else {
            sampleChannels = nil
        }
        super.init(node: node, stats: stats)
        // A shrink reads in/out input rows per output row: size the strip by the rows it reads.
        if inputHeight > node.height { stripHeight = max(1, stripHeight * node.height / inputHeight) }
    }

    override var pullsInputs: Bool { spans != nil }

    /// Each output row's nonzero-weight input rows, or nil when some input row between them is read by none.
    private static func contiguousSpans(_ weights: ResampleWeights) -> [ClosedRange<Int>]? {
        var spans: [ClosedRange<Int>] = []
        var reached = -1
        for i in 0..<weights.outSize {
            let r = weights.inputRange(for: i..<i + 1)
            if !spans.isEmpty && r.lowerBound > reached + 1 { return nil }
            spans.append(r.lowerBound...r.upperBound - 1)
            reached = max(reached, r.upperBound - 1)
        }
        return spans
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        if let spans {
            let accumulator = self.accumulator
                ?? RowAccumulator(spans: spans, width: width, inputWidth: self.inputs[0].stage.width,
                                  sampleChannels: sampleChannels, stats: stats)
            try accumulator.produce(rows, weights: weights, into: output) { try pull($0, input: 0) }
            self.accumulator = rows.upperBound == height ? nil : accumulator
            return
        }
        let input = inputs[0], n = width * 4, taps = weights.taps
        if let sampleChannels {
            computeFromSamples(rows, input: input, channels: sampleChannels, into: output)
            return
        }
        weights.indices.withUnsafeBufferPointer { indices in
            weights.weights.withUnsafeBufferPointer { w in
                parallelRows(rows) { chunk in
                    if fr_kernels_avx2() != 0 {
                        // The nonzero taps' rows and weights, summed in one pass (the same order as below, fused).
                        forEachNonzeroTaps(chunk, taps: taps, indices: indices, weights: w,
                                           row: { UnsafePointer(input.row($0)) }) { y, sources, kept, count in
                            let out = output + (y - rows.lowerBound) * n
                            if count == 0 {
                                out.update(repeating: 0, count: n)
                            } else {
                                fr_vertical_taps_avx2(out, sources, kept, Int32(count), n, 0)
                            }
                        }
                        return
                    }
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

    /// The windowed pass over 8-bit samples: each output row's nonzero taps read their rows' codes.
    private func computeFromSamples(_ rows: Range<Int>, input: RowView, channels: Int,
                                    into output: UnsafeMutablePointer<Float>) {
        let n = width * 4, taps = weights.taps, width = width, channels = Int32(channels)
        weights.indices.withUnsafeBufferPointer { indices in
            weights.weights.withUnsafeBufferPointer { w in
                parallelRows(rows) { chunk in
                    forEachNonzeroTaps(chunk, taps: taps, indices: indices, weights: w,
                                       row: { UnsafePointer(input.bytes($0).assumingMemoryBound(to: UInt8.self)) }) { y, sources, kept, count in
                        fr_vertical_taps8(output + (y - rows.lowerBound) * n, sources, kept, Int32(count), width, channels, 0)
                    }
                }
            }
        }
    }
}

/// Mean of each x×y block of the input (partial blocks at the right and bottom average what they cover): the
/// shrink applied as rows are decoded, before an exact resample, so a large downscale never converts or filters
/// the image at full size for long.
final class BoxReduceStage: Stage {
    let factorX: Int, factorY: Int, inputWidth: Int, inputHeight: Int

    init(x: Int, y: Int, input: Plan.Node, node: Plan.Node, stats: RenderStats) {
        factorX = x
        factorY = y
        inputWidth = input.width
        inputHeight = input.height
        super.init(node: node, stats: stats)
        // Each output row reads `y` input rows: keep the input strip, not the output strip, about 1 MiB.
        stripHeight = max(1, stripHeight * node.width / max(1, input.width * y))
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, fx = factorX, fy = factorY, inW = inputWidth, inH = inputHeight
        parallelRows(rows) { chunk in
            let sums = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
            defer { sums.deallocate() }
            for y in chunk {
                sums.update(repeating: SIMD4<Float>(), count: width)
                let first = y * fy, last = min(inH, first + fy)
                for row in first..<last {
                    let src = input.pixels(row)
                    for x in 0..<width {
                        var sum = SIMD4<Float>()
                        for i in (x * fx)..<min(inW, x * fx + fx) { sum += src[i] }
                        sums[x] += sum
                    }
                }
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<width {
                    let count = (min(inW, x * fx + fx) - x * fx) * (last - first)
                    out[x] = sums[x] / Float(count)
                }
            }
        }
    }
}

/// For each output row `y` of `chunk`: the rows (`row(index)`) and weights of its nonzero taps, and how many there
/// are. Shared by the vertical passes over floats, samples and fixed point.
@inline(__always)
func forEachNonzeroTaps<Row, Weight: Numeric>(_ chunk: Range<Int>, taps: Int, indices: UnsafeBufferPointer<Int32>,
                                              weights: UnsafeBufferPointer<Weight>, row: (Int) -> Row,
                                              _ body: (_ y: Int, UnsafePointer<Row?>, UnsafePointer<Weight>, _ count: Int) -> Void) {
    withUnsafeTemporaryAllocation(of: Row?.self, capacity: taps) { sources in
        withUnsafeTemporaryAllocation(of: Weight.self, capacity: taps) { kept in
            for y in chunk {
                var count = 0
                for t in 0..<taps where weights[y * taps + t] != 0 {
                    sources[count] = row(Int(indices[y * taps + t]))
                    kept[count] = weights[y * taps + t]
                    count += 1
                }
                body(y, UnsafePointer(sources.baseAddress!), UnsafePointer(kept.baseAddress!), count)
            }
        }
    }
}
