import CKernels
import FilterCore

/// The two passes of a blur on opaque 8-bit samples in integer arithmetic (`SampleAction.fixedPoint`): a horizontal
/// pass into 16-bit rows (weighted sums with 7 bits below the code, or a box's exact sums), then a vertical pass
/// that rounds to 8-bit samples once. Rows move at 2 bytes a channel, then 1, where the float passes move 16 bytes
/// a pixel twice and the encoder converts them back.
enum FixedPointBlur {
    case taps(horizontal: FixedPointTaps, vertical: FixedPointTaps)
    case box(radius: Int)

    /// The stages for `node`, held as `format` samples (or, `unrounded`, those samples in fixed point), reading
    /// `input` (the same samples).
    func stages(_ node: Plan.Node, format: PixelFormat, source: String, unrounded: Bool = false, input: Stage,
                stats: RenderStats) -> Stage {
        // The horizontal pass's rows: one 16-bit value a channel.
        var across = node.withoutPost
        across.representation = .samples(format.channels == 1 ? .grey16 : .rgb16, source: source)
        switch self {
        case let .taps(horizontal, vertical):
            let h = FixedHorizontalStage(.taps(horizontal.weights), channels: format.channels, node: across, stats: stats)
            h.connect(input)
            let v = FixedVerticalTapsStage(weights: vertical.weights, rounds: !unrounded, node: node, stats: stats)
            v.connect(h)
            return v
        case .box(let radius):
            let h = FixedHorizontalStage(.box(radius: radius), channels: format.channels, node: across, stats: stats)
            h.connect(input)
            let v = FixedVerticalBoxStage(radius: radius, node: node, stats: stats)
            v.connect(h)
            return v
        }
    }
}

/// A row of `values` samples (`channels` a pixel) into `padded` with `pad` copies of its edge pixels on each side.
private func padSamples(_ src: UnsafePointer<UInt8>, into padded: UnsafeMutablePointer<UInt8>, values n: Int, channels c: Int,
                        pad r: Int) {
    (padded + r * c).update(from: src, count: n)
    for k in 0..<r {
        (padded + k * c).update(from: src, count: c)
        (padded + r * c + n + k * c).update(from: src + n - c, count: c)
    }
}

/// Each row of samples padded with its edge pixels, then its taps (`fr_fixed_taps_h8`) or its box sums
/// (`fr_box_sums_h8`) into 16-bit values.
final class FixedHorizontalStage: Stage {
    enum Pass {
        case taps([Int16])
        case box(radius: Int)
    }
    let pass: Pass
    let channels: Int

    init(_ pass: Pass, channels: Int, node: Plan.Node, stats: RenderStats) {
        self.pass = pass
        self.channels = channels
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        let input = inputs[0], c = channels, n = width * channels
        let (weights, r, box): ([Int16], Int, Bool)
        switch pass {
        case .taps(let taps): (weights, r, box) = (taps, taps.count / 2, false)
        case .box(let radius): (weights, r, box) = ([], radius, true)
        }
        parallelRows(rows) { chunk in
            let padded = UnsafeMutablePointer<UInt8>.allocate(capacity: n + 2 * r * c)
            defer { padded.deallocate() }
            weights.withUnsafeBufferPointer { w in
                for y in chunk {
                    padSamples(input.bytes(y).assumingMemoryBound(to: UInt8.self), into: padded, values: n, channels: c, pad: r)
                    let out = output + (y - rows.lowerBound) * n * 2
                    if box {
                        fr_box_sums_h8(out.assumingMemoryBound(to: UInt16.self), padded, Int32(r), c, n)
                    } else {
                        fr_fixed_taps_h8(out.assumingMemoryBound(to: Int16.self), padded, w.baseAddress, Int32(w.count), c, n)
                    }
                }
            }
        }
    }
}

/// The vertical taps over the horizontal pass's rows, rounded to 8-bit samples (`fr_fixed_taps_v8`), a tile of
/// columns at a time so a tall kernel's rows stay in cache for every output row of a chunk.
final class FixedVerticalTapsStage: Stage {
    let weights: [Int16]
    /// Whether the result rounds to samples (`fr_fixed_taps_v8`) or keeps 7 bits below the code (`_v16`).
    let rounds: Bool

    init(weights: [Int16], rounds: Bool, node: Plan.Node, stats: RenderStats) {
        self.weights = weights
        self.rounds = rounds
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        let input = inputs[0], r = weights.count / 2, weights = weights, rounds = rounds
        let n = width * (rounds ? pixelBytes : pixelBytes / 2), valueBytes = rounds ? 1 : 2
        let tile = 2048
        WorkerPool.forEachChunk(rows, minChunk: 4) { chunk in
            withUnsafeTemporaryAllocation(of: UnsafePointer<Int16>?.self, capacity: weights.count) { sources in
                weights.withUnsafeBufferPointer { w in
                    for x0 in stride(from: 0, to: n, by: tile) {
                        for y in chunk {
                            for t in 0..<w.count {
                                sources[t] = UnsafePointer(input.bytes(y + t - r).assumingMemoryBound(to: Int16.self) + x0)
                            }
                            let out = output + ((y - rows.lowerBound) * n + x0) * valueBytes
                            if rounds {
                                fr_fixed_taps_v8(out.assumingMemoryBound(to: UInt8.self), sources.baseAddress, w.baseAddress,
                                                 Int32(w.count), min(tile, n - x0))
                            } else {
                                fr_fixed_taps_v16(out.assumingMemoryBound(to: Int16.self), sources.baseAddress, w.baseAddress,
                                                  Int32(w.count), min(tile, n - x0))
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The box's column sums carried down the image, one block of columns to a worker (`fr_box_sums_v8`): exact
/// integer sums, each window's mean rounded to a sample. Strips come top to bottom, so each continues the sums the
/// last one left (they are started again only where a strip does not follow on, as below a skipped crop).
final class FixedVerticalBoxStage: Stage {
    let radius: Int
    /// Each column's sum over the window of row `next`.
    private var sums: UnsafeMutablePointer<UInt32>?
    private var next = -1

    init(radius: Int, node: Plan.Node, stats: RenderStats) {
        self.radius = radius
        super.init(node: node, stats: stats)
    }

    deinit { sums?.deallocate() }

    /// The window of every row of the strip, and the row below it that moves the sums on to the next strip.
    override func inputRows(for rows: Range<Int>, input: Int) -> Range<Int> {
        (rows.lowerBound - radius)..<(rows.upperBound + radius + 1)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        let input = inputs[0], n = width * pixelBytes, r = radius, count = rows.count
        let window = 2 * r + 1, scale = 1 / Float(window * window)
        if sums == nil { sums = .allocate(capacity: n) }
        guard let sums else { return }
        let fresh = rows.lowerBound != next
        next = rows.upperBound
        WorkerPool.forEachChunk(0..<n, minChunk: 2048) { columns in
            let lo = columns.lowerBound
            let sources = UnsafeMutablePointer<UnsafePointer<UInt16>?>.allocate(capacity: count + window)
            let outs = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: count)
            defer { sources.deallocate(); outs.deallocate() }
            for k in 0..<(count + window) {
                sources[k] = UnsafePointer(input.bytes(rows.lowerBound - r + k).assumingMemoryBound(to: UInt16.self) + lo)
            }
            for y in 0..<count { outs[y] = output.assumingMemoryBound(to: UInt8.self) + y * n + lo }
            if fresh { fr_box_sums_start(sums + lo, sources, Int32(r), columns.count) }
            fr_box_sums_v8(outs, sources, sums + lo, Int32(r), count, scale, columns.count)
        }
    }
}

/// An unsharp mask on opaque 8-bit samples and their fixed-point blur (`fr_fixed_unsharp8`), rounded to samples.
final class FixedUnsharpStage: Stage {
    let amount: Float, threshold: Float

    init(amount: Float, threshold: Float, node: Plan.Node, stats: RenderStats) {
        self.amount = amount
        self.threshold = threshold
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        let original = inputs[0], blurred = inputs[1], n = width * pixelBytes, amount = amount
        // The threshold is in working values, the codes ÷ 255 in the sRGB working space.
        let threshold = threshold * 255
        parallelRows(rows) { chunk in
            for y in chunk {
                fr_fixed_unsharp8(output.assumingMemoryBound(to: UInt8.self) + (y - rows.lowerBound) * n,
                                  original.bytes(y).assumingMemoryBound(to: UInt8.self),
                                  blurred.bytes(y).assumingMemoryBound(to: Int16.self), n, amount, threshold)
            }
        }
    }
}

/// A kernel that does not factor, on opaque 8-bit samples in one pass of fixed-point taps (`fr_fixed_kernel8`):
/// each chunk pads each input row with its edge pixels once, into a ring of the kernel's height.
final class FixedKernelStage: Stage {
    let kernel: FixedPointKernel
    let channels: Int

    init(_ kernel: FixedPointKernel, channels: Int, node: Plan.Node, stats: RenderStats) {
        self.kernel = kernel
        self.channels = channels
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        let input = inputs[0], c = channels, n = width * channels, kernel = kernel
        let r = kernel.taps.reduce(0) { max($0, abs($1.dx), abs($1.dy)) }, height = 2 * r + 1, rowBytes = n + 2 * r * c
        let weights = kernel.taps.map(\.weight)
        parallelRows(rows) { chunk in
            let ring = UnsafeMutablePointer<UInt8>.allocate(capacity: height * rowBytes)
            let sources = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: max(1, weights.count))
            defer { ring.deallocate(); sources.deallocate() }
            func slot(_ y: Int) -> UnsafeMutablePointer<UInt8> { ring + ((y % height + height) % height) * rowBytes }
            func pad(_ y: Int) {
                padSamples(input.bytes(y).assumingMemoryBound(to: UInt8.self), into: slot(y), values: n, channels: c, pad: r)
            }
            for y in (chunk.lowerBound - r)..<(chunk.lowerBound + r) { pad(y) }
            weights.withUnsafeBufferPointer { w in
                for y in chunk {
                    pad(y + r)
                    for (t, tap) in kernel.taps.enumerated() { sources[t] = UnsafePointer(slot(y + tap.dy) + (tap.dx + r) * c) }
                    fr_fixed_kernel8(output.assumingMemoryBound(to: UInt8.self) + (y - rows.lowerBound) * n, sources,
                                     w.baseAddress, Int32(w.count), Int32(kernel.fractionBits), kernel.bias, n)
                }
            }
        }
    }
}
