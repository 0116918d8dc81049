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
                    Self.taps(padded, k, width: width, avx2: fr_kernels_avx2() != 0,
                              into: output + (y - rows.lowerBound) * width * 4)
                }
            }
        }
    }
}

extension HorizontalConvolutionStage {
    /// out[x] = Σₜ weights[t]·padded[x + t] for `width` working pixels (`padded` holds width + taps − 1):
    /// `fr_horizontal_taps_avx2`, or the portable loop.
    static func taps(_ padded: UnsafeMutablePointer<SIMD4<Float>>, _ weights: UnsafeBufferPointer<Float>, width: Int,
                     avx2: Bool, into row: UnsafeMutablePointer<Float>) {
        if avx2 {
            UnsafeRawPointer(padded).withMemoryRebound(to: Float.self, capacity: 4 * (width + weights.count - 1)) {
                fr_horizontal_taps_avx2(row, $0, weights.baseAddress, Int32(weights.count), width)
            }
            return
        }
        let out = UnsafeMutableRawPointer(row).assumingMemoryBound(to: SIMD4<Float>.self)
        for x in 0..<width {
            var sum = SIMD4<Float>()
            let window = padded + x
            for t in 0..<weights.count { sum += window[t] * weights[t] }
            out[x] = sum
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
    /// Converts the input's stored samples to working values when the node reads them (`Plan.Node.readsSamples`):
    /// each row once, into a row the running sum then reads.
    let samples: PixelConverter?

    init(radius: Int, samples: PixelConverter?, node: Plan.Node, stats: RenderStats) {
        self.radius = radius
        self.samples = samples
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, r = radius, samples = samples
        let scale = 1 / Float(2 * r + 1)
        parallelRows(rows) { chunk in
            let converted = samples == nil ? nil : UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
            defer { converted?.deallocate() }
            for y in chunk {
                let src: UnsafeMutablePointer<SIMD4<Float>>
                if let samples, let converted {
                    samples.decode(input.bytes(y), into: UnsafeMutableRawPointer(converted).assumingMemoryBound(to: Float.self),
                                   width: width)
                    src = converted
                } else {
                    src = input.pixels(y)
                }
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

    /// The strip is shared out by columns, not rows: each block of columns starts its running sums once (2r + 1
    /// rows) and carries them down the whole strip, where blocks of rows each started their own (a strip of 12 rows
    /// in 8 chunks summed the 11 rows of an r = 5 window eight times).
    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], n = width * 4, r = radius
        let scale = 1 / Float(2 * r + 1)
        WorkerPool.forEachChunk(0..<width, minChunk: 256) { columns in
            let lo = columns.lowerBound * 4, count = columns.count * 4
            let sum = UnsafeMutablePointer<Float>.allocate(capacity: count)
            defer { sum.deallocate() }
            sum.update(repeating: 0, count: count)
            for t in (rows.lowerBound - r)...(rows.lowerBound + r) {
                let src = input.row(t) + lo
                for i in 0..<count { sum[i] += src[i] }
            }
            for y in rows {
                let out = output + (y - rows.lowerBound) * n + lo
                for i in 0..<count { out[i] = sum[i] * scale }
                let add = input.row(y + r + 1) + lo, remove = input.row(y - r) + lo
                for i in 0..<count { sum[i] += add[i] - remove[i] }
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

    /// The kernel as a column times a row where it is one (a binomial, a box, a Gaussian written out as a matrix):
    /// then it runs as two passes of `size` taps instead of one of size² (a 5×5 binomial: 10 taps a pixel, not 25).
    let factors: (column: [Float], row: [Float])?

    /// Converts the input's stored samples (opaque: no alpha) as rows are padded, when the node reads them.
    let samples: PixelConverter?
    /// Whether the input is opaque (`Plan.nodesMayHaveAlpha`): its straight colour is its working colour, and the
    /// result's alpha is 1 where the kernel keeps alpha.
    let opaque: Bool

    init(kernel: [Float], size: Int, bias: Float, preserveAlpha: Bool, samples: PixelConverter?, opaque: Bool = false,
         node: Plan.Node, stats: RenderStats) {
        self.kernel = kernel
        self.size = size
        self.bias = bias
        self.preserveAlpha = preserveAlpha
        self.samples = samples
        self.opaque = opaque || samples != nil
        factors = size > 1 ? Primitives.Convolve.factors(kernel, size: size) : nil
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, kernel = kernel, size = size, r = size / 2
        let bias = bias, preserveAlpha = preserveAlpha, avx2 = fr_kernels_avx2() != 0, factors = factors
        let samples = samples
        // The nonzero taps: kernel row j, column i reads row y + j − r from pixel x + i.
        let taps = (0..<size * size).filter { kernel[$0] != 0 }
        let sparse = SparseTaps(offsets: taps.map { (dx: $0 % size - r, dy: $0 / size - r) }, weights: taps.map { kernel[$0] })
        // Straight colour when the kernel works on it; opaque rows are straight colour already.
        let straight = preserveAlpha && !opaque, opaque = opaque
        parallelRows(rows) { chunk in
            if let factors {
                Self.separable(chunk, input: input, samples: samples, width: width, factors: factors, straight: straight,
                               avx2: avx2, into: output, first: rows.lowerBound)
            } else {
                sparse.apply(chunk, input: input, samples: samples, width: width, straight: straight, avx2: avx2,
                             into: output, first: rows.lowerBound)
            }
            for y in chunk {
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                if opaque && preserveAlpha && bias == 0 {
                    // Alpha is 1 and nothing is added: only the alpha lane, which held the kernel's sum, is set.
                    let lanes = UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self)
                    for x in 0..<width { lanes[4 * x + 3] = 1 }
                    continue
                }
                let centre = input.pixels(y)
                for x in 0..<width {
                    if preserveAlpha {
                        let a: Float = opaque ? 1 : centre[x][3]
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

extension ConvolveStage {
    /// Output rows `chunk` of a kernel `factors.column[j]·factors.row[i]` into `output` (whose first row is `first`):
    /// each input row the chunk reads is padded with its edge pixels (converted from `samples`, or unpremultiplied
    /// with `straight`), passed through the row's taps once, and each output row is the column's weighted sum of
    /// those rows.
    static func separable(_ chunk: Range<Int>, input: RowView, samples: PixelConverter?, width: Int,
                          factors: (column: [Float], row: [Float]), straight: Bool, avx2: Bool,
                          into output: UnsafeMutablePointer<Float>, first outputFirst: Int) {
        let size = factors.row.count, r = size / 2, first = chunk.lowerBound - r, count = chunk.count + 2 * r
        let padded = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width + 2 * r)
        let across = UnsafeMutablePointer<Float>.allocate(capacity: count * width * 4)
        let sources = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: size)
        defer { padded.deallocate(); across.deallocate(); sources.deallocate() }
        factors.row.withUnsafeBufferPointer { row in
            for k in 0..<count {
                SparseTaps.pad(input, row: first + k, into: padded + r, width: width, pad: r, samples: samples,
                               straight: straight)
                HorizontalConvolutionStage.taps(padded, row, width: width, avx2: avx2, into: across + k * width * 4)
            }
        }
        factors.column.withUnsafeBufferPointer { column in
            for y in chunk {
                let out = output + (y - outputFirst) * width * 4
                for t in 0..<size { sources[t] = UnsafePointer(across + (y - r - first + t) * width * 4) }
                SparseTaps.sum(sources, column, pixels: width, avx2: avx2, into: out)
            }
        }
    }
}
