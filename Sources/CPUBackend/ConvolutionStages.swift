import CKernels
import FilterCore

/// Horizontal pass of a separable convolution (odd, centred taps; edges clamp).
final class HorizontalConvolutionStage: Stage {
    let taps: [Float]
    /// Converts the input's stored samples to working values when the node reads them (`Plan.Node.readsSamples`).
    let samples: PixelConverter?

    init(taps: [Float], samples: PixelConverter?, node: Plan.Node, stats: RenderStats) {
        self.taps = taps
        self.samples = samples
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, taps = taps, radius = taps.count / 2, samples = samples
        parallelRows(rows) { chunk in
            // The row with `radius` edge pixels repeated on each side, so the inner loop has no branches.
            let padded = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width + 2 * radius)
            defer { padded.deallocate() }
            taps.withUnsafeBufferPointer { k in
                for y in chunk {
                    if let samples {
                        // Stored samples become working values where the pass pads them.
                        samples.decode(input.bytes(y), into: UnsafeMutableRawPointer(padded + radius)
                            .assumingMemoryBound(to: Float.self), width: width)
                    } else {
                        (padded + radius).update(from: input.pixels(y), count: width)
                    }
                    padded.update(repeating: padded[radius], count: radius)
                    (padded + radius + width).update(repeating: padded[radius + width - 1], count: radius)
                    let row = output + (y - rows.lowerBound) * width * 4
                    if fr_kernels_avx2() != 0 {
                        UnsafeRawPointer(padded).withMemoryRebound(to: Float.self, capacity: 4 * (width + 2 * radius)) {
                            fr_horizontal_taps_avx2(row, $0, k.baseAddress, Int32(k.count), width)
                        }
                        continue
                    }
                    let out = UnsafeMutableRawPointer(row).assumingMemoryBound(to: SIMD4<Float>.self)
                    for x in 0..<width {
                        var sum = SIMD4<Float>()
                        let window = padded + x
                        for t in 0..<k.count { sum += window[t] * k[t] }
                        out[x] = sum
                    }
                }
            }
        }
    }
}

/// Vertical pass of a separable convolution: each output row is a weighted sum of whole input rows, which the
/// compiler vectorises across the row.
final class VerticalConvolutionStage: Stage {
    let taps: [Float]

    init(taps: [Float], node: Plan.Node, stats: RenderStats) {
        self.taps = taps
        super.init(node: node, stats: stats)
    }

    override func connect(_ input: Stage) {
        super.connect(input)
        // Strips of a multiple of 4 rows, in chunks of 4 (below): every output row then goes through the four-row
        // loop. (Taller strips only hold more rows: the input's rows are cached across strips.)
        stripHeight = (max(stripHeight, 8) + 3) / 4 * 4
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], n = width * 4, taps = taps, radius = taps.count / 2
        WorkerPool.forEachChunk(rows, minChunk: 4) { chunk in
            if fr_kernels_avx2() != 0 {
                // Columns of a tile down the chunk's rows: the tile's input rows (taps + chunk of them, 4 KiB each)
                // stay in L2 for every output row of the chunk instead of all taps' whole rows streaming from L3
                // for each (a σ 8 Gaussian reads 49 rows of 61 KiB per output row of a 4K photo).
                // Four output rows at a time share their input rows' loads (`fr_vertical_taps4_avx2`).
                let tile = 1024
                withUnsafeTemporaryAllocation(of: UnsafePointer<Float>?.self, capacity: taps.count + 3) { sources in
                    withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>?.self, capacity: 4) { outs in
                        taps.withUnsafeBufferPointer { k in
                            for x0 in stride(from: 0, to: n, by: tile) {
                                let count = min(tile, n - x0)
                                var y = chunk.lowerBound
                                while y < chunk.upperBound {
                                    let together = chunk.upperBound - y >= 4 ? 4 : 1
                                    for t in 0..<taps.count + together - 1 {
                                        sources[t] = UnsafePointer(input.row(y + t - radius) + x0)
                                    }
                                    if together == 4 {
                                        for j in 0..<4 { outs[j] = output + (y + j - rows.lowerBound) * n + x0 }
                                        fr_vertical_taps4_avx2(outs.baseAddress, sources.baseAddress, k.baseAddress,
                                                               Int32(taps.count), count)
                                    } else {
                                        fr_vertical_taps_avx2(output + (y - rows.lowerBound) * n + x0, sources.baseAddress,
                                                              k.baseAddress, Int32(taps.count), count, 0)
                                    }
                                    y += together
                                }
                            }
                        }
                    }
                }
                return
            }
            for y in chunk {
                let out = output + (y - rows.lowerBound) * n
                out.update(repeating: 0, count: n)
                for (t, weight) in taps.enumerated() {
                    let src = input.row(y + t - radius)
                    for i in 0..<n { out[i] += weight * src[i] }
                }
            }
        }
    }
}

/// Box mean along rows with a running sum.
final class HorizontalBoxStage: Stage {
    let radius: Int

    init(radius: Int, node: Plan.Node, stats: RenderStats) {
        self.radius = radius
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, r = radius
        let scale = 1 / Float(2 * r + 1)
        parallelRows(rows) { chunk in
            for y in chunk {
                let src = input.pixels(y)
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                @inline(__always) func at(_ x: Int) -> SIMD4<Float> { src[x < 0 ? 0 : (x >= width ? width - 1 : x)] }
                var sum = SIMD4<Float>()
                for x in -r...r { sum += at(x) }
                for x in 0..<width {
                    out[x] = sum * scale
                    sum += at(x + r + 1) - at(x - r)
                }
            }
        }
    }
}

/// Box mean down columns with a running sum per chunk of rows.
final class VerticalBoxStage: Stage {
    let radius: Int

    init(radius: Int, node: Plan.Node, stats: RenderStats) {
        self.radius = radius
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], n = width * 4, r = radius
        let scale = 1 / Float(2 * r + 1)
        parallelRows(rows) { chunk in
            let sum = UnsafeMutablePointer<Float>.allocate(capacity: n)
            defer { sum.deallocate() }
            sum.update(repeating: 0, count: n)
            for t in (chunk.lowerBound - r)...(chunk.lowerBound + r) {
                let src = input.row(t)
                for i in 0..<n { sum[i] += src[i] }
            }
            for y in chunk {
                let out = output + (y - rows.lowerBound) * n
                for i in 0..<n { out[i] = sum[i] * scale }
                let add = input.row(y + r + 1), remove = input.row(y - r)
                for i in 0..<n { sum[i] += add[i] - remove[i] }
            }
        }
    }
}

/// Square kernel (a correlation), edges clamped. With `preserveAlpha` the kernel reads straight colour and alpha is
/// kept (W3C preserveAlpha = true); otherwise all four premultiplied channels are convolved. Bias is added to
/// straight colour.
final class ConvolveStage: Stage {
    let kernel: [Float]
    let size: Int
    let bias: Float
    let preserveAlpha: Bool

    init(kernel: [Float], size: Int, bias: Float, preserveAlpha: Bool, node: Plan.Node, stats: RenderStats) {
        self.kernel = kernel
        self.size = size
        self.bias = bias
        self.preserveAlpha = preserveAlpha
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, kernel = kernel, size = size, r = size / 2
        let bias = bias, preserveAlpha = preserveAlpha, avx2 = fr_kernels_avx2() != 0
        // The nonzero taps: kernel row j, column i reads row y + j − r from pixel x + i.
        let taps = (0..<size * size).filter { kernel[$0] != 0 }
        let sparse = SparseTaps(offsets: taps.map { (dx: $0 % size - r, dy: $0 / size - r) }, weights: taps.map { kernel[$0] })
        parallelRows(rows) { chunk in
            // Straight colour when the kernel works on it.
            sparse.apply(chunk, input: input, width: width, straight: preserveAlpha, avx2: avx2, into: output, first: rows.lowerBound)
            for y in chunk {
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                let centre = input.pixels(y)
                for x in 0..<width {
                    if preserveAlpha {
                        let a = centre[x][3]
                        var v = (out[x] + SIMD4(repeating: bias)) * a
                        v[3] = a
                        out[x] = v
                    } else {
                        let a = out[x][3]
                        var v = out[x] + SIMD4(repeating: bias * a)
                        v[3] = a
                        out[x] = v
                    }
                }
            }
        }
    }
}
