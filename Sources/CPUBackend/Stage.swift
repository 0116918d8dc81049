import FilterCore

/// One node of a CPU render. Consumers pull rows top to bottom; the stage computes strips on demand, keeps the
/// rows its slowest consumer may still ask for, and frees everything once no consumer needs more.
class Stage {
    let width: Int
    let height: Int
    let origin: String
    let op: String
    var inputs: [(stage: Stage, consumer: Int)] = []
    var stripHeight: Int
    private var positions: [Int] = []
    private let cache: RowCache
    let stats: RenderStats
    /// Per-pixel steps the optimizer fused into this stage's store, applied to each strip while it is in cache.
    let post: [PointOp]
    /// `post`'s kernels.
    let postKernels: CPUPointOps
    /// How the rows are held (working floats or stored samples) and the bytes of one pixel.
    let representation: Representation
    let pixelBytes: Int
    /// `post` as tables, for a stage holding samples (set by the renderer).
    var postTable: SampleTable?

    init(node: Plan.Node, stats: RenderStats) {
        post = node.post
        postKernels = CPUPointOps(node.post)
        width = node.width
        height = node.height
        origin = node.origin
        op = node.op
        self.stats = stats
        representation = node.representation
        pixelBytes = node.representation.bytesPerPixel
        cache = RowCache(rowBytes: width * pixelBytes, stats: stats)
        // Strips of about 1 MiB of floats keep each step's rows in cache while leaving work for every core.
        stripHeight = max(8, min(256, (1 << 20) / max(1, width * 16)))
    }

    func connect(_ input: Stage) {
        inputs.append((input, input.addConsumer()))
        // A strip of this stage asks for as many rows of a wider input: keep that request about 1 MiB too.
        stripHeight = min(stripHeight, max(8, (1 << 20) / max(1, input.width * 16)))
    }

    func addConsumer() -> Int {
        positions.append(0)
        return positions.count - 1
    }

    /// Which rows of each input the stage reads: its node's row rule (`Plan.inputRows`, or the whole input where the
    /// rule holds it), the rule both backends and `--explain` read, set by the renderer on the stage that finishes a
    /// node.
    var region: ((Range<Int>, Int) -> Range<Int>?)?

    /// Input rows needed for output rows `rows`: the plan's rule; the same rows for a stage inside a node (a
    /// separable filter's horizontal pass).
    func inputRows(for rows: Range<Int>, input: Int) -> Range<Int> {
        region?(rows, input) ?? rows
    }

    /// A stage that asks its inputs for rows itself, a few at a time, while computing (a large shrink accumulating
    /// its input rows as they arrive); `compute` then receives no input views.
    var pullsInputs: Bool { false }

    /// Writes output rows `rows` into `output` (rows contiguous, `width × 4` floats each).
    func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        fatalError("compute not implemented for \(op)")
    }

    /// Writes output rows `rows` into `output` (rows contiguous, `width × pixelBytes` bytes each): what the stage
    /// runs. Stages that work in any representation override it; the rest compute working floats.
    func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        try compute(rows, inputs: inputs, into: output.assumingMemoryBound(to: Float.self))
    }

    /// Makes rows `rows` available to `consumer`, which promises never to ask for rows above `rows.lowerBound`.
    final func ensure(_ rows: Range<Int>, consumer: Int) throws {
        positions[consumer] = rows.lowerBound
        cache.trim(below: positions.min()!)
        guard rows.upperBound > cache.end else { return }
        // Rows no consumer will ask for (a crop below the top) are skipped, not computed; but only rows below every
        // consumer's position: another consumer may still need the top rows (a random-chain test caught this).
        let lowest = positions.min()!
        if cache.count == 0 && cache.first < lowest { cache.trim(below: lowest) }
        cache.reserve(upTo: rows.upperBound)
        // One strip at a time, so a consumer asking for many rows (a large vertical shrink) never makes the inputs
        // hold all the rows behind them at once: each input is told to move on after every strip.
        while cache.end < rows.upperBound {
            let start = cache.end
            // A request a little over a strip is done in one go rather than computing most of a second strip.
            let remaining = rows.upperBound - start
            let stop = min(height, remaining <= stripHeight * 3 / 2 ? max(rows.upperBound, start + stripHeight) : start + stripHeight)
            var views: [RowView] = []
            if !pullsInputs {
                let needed = inputs.enumerated().map { i, input in
                    let r = inputRows(for: start..<stop, input: i)
                    return max(0, r.lowerBound)..<min(input.stage.height, r.upperBound)
                }
                for (i, input) in inputs.enumerated() { try input.stage.ensure(needed[i], consumer: input.consumer) }
                views = inputs.enumerated().map { i, input in input.stage.view(needed[i]) }
            }
            let output = cache.append(stop - start)
            let began = monotonicSeconds()
            pulledSeconds = 0
            try compute(start..<stop, inputs: views, bytes: output)
            if let postTable {
                postTable.apply(output, pixels: (stop - start) * width)
            } else if !post.isEmpty {
                applyPost(start..<stop, output.assumingMemoryBound(to: Float.self))
            }
            stats.addTime(id: origin, op: op, backend: .cpu, seconds: monotonicSeconds() - began - pulledSeconds,
                          bytes: (stop - start) * width * pixelBytes)
            if stop == height {
                for input in inputs { input.stage.finish(consumer: input.consumer) }
            }
        }
    }

    final func view(_ rows: Range<Int>) -> RowView { cache.view(rows) }

    /// Time spent in `pull` during the current `compute`: the inputs' own work, not this stage's.
    private var pulledSeconds = 0.0

    /// For stages that pull their inputs: rows `rows` of input `index` (which never again asks above `rows.lowerBound`).
    final func pull(_ rows: Range<Int>, input index: Int) throws -> RowView {
        let began = monotonicSeconds()
        defer { pulledSeconds += monotonicSeconds() - began }
        let input = inputs[index]
        try input.stage.ensure(rows, consumer: input.consumer)
        return input.stage.view(rows)
    }

    /// The consumer is done: once all are, the rows are freed.
    final func finish(consumer: Int) {
        positions[consumer] = Int.max
        if positions.allSatisfy({ $0 == Int.max }) { cache.release() }
    }

    private func applyPost(_ rows: Range<Int>, _ output: UnsafeMutablePointer<Float>) {
        let post = postKernels, width = width, height = height
        parallelRows(rows) { chunk in
            for y in chunk {
                let row = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                PointKernel.run(post, from: row, to: row, y: y, width: width, height: height)
            }
        }
    }

    /// Runs `body` over disjoint row chunks of `rows` on the worker pool.
    final func parallelRows(_ rows: Range<Int>, _ body: (Range<Int>) -> Void) {
        WorkerPool.forEachChunk(rows, minChunk: max(1, 4096 / max(1, width)), body)
    }
}
