import CKernels
import FilterCore

/// The output rows of a vertical shrink while they are being summed. Input rows are pulled in order, a few at a
/// time, and each is added, weighted, into every output row whose taps reach it; an output row is complete once
/// its last input row has been added. Rows are summed in input order, as the windowed pass sums its taps, so the
/// portable path gives the windowed pass's floats exactly.
final class RowAccumulator {
    private let spans: [ClosedRange<Int>]
    /// One past the last input row that output rows 0…i read.
    private let needEnd: [Int]
    /// The first input row that output rows i… read.
    private let firstNeed: [Int]
    private let rowFloats: Int
    /// Input rows per pull: about 1 MiB of them, as a strip.
    private let pullRows: Int
    /// The output rows started (zeroed) and not yet handed out: rows `sums.first ..< sums.end`.
    private let sums: RowCache
    /// The next input row to pull.
    private var consumed: Int
    /// Samples a pixel of input rows of 8-bit samples (codes / 255, no alpha), or nil for working floats.
    private let sampleChannels: Int?

    init(spans: [ClosedRange<Int>], width: Int, inputWidth: Int, sampleChannels: Int? = nil, stats: RenderStats) {
        self.spans = spans
        self.sampleChannels = sampleChannels
        rowFloats = width * 4
        sums = RowCache(rowBytes: width * 16, stats: stats)
        var reached = 0
        needEnd = spans.map { span in
            reached = max(reached, span.upperBound + 1)
            return reached
        }
        var lowest = Int.max
        firstNeed = spans.reversed().map { span in
            lowest = min(lowest, span.lowerBound)
            return lowest
        }.reversed()
        pullRows = max(1, (1 << 20) / max(1, inputWidth * 16))
        consumed = firstNeed.first ?? 0
    }

    /// Writes the finished output rows `rows` into `output`, pulling (through `pull`) the input rows they still need.
    func produce(_ rows: Range<Int>, weights: ResampleWeights, into output: UnsafeMutablePointer<Float>,
                 pull: (Range<Int>) throws -> RowView) throws {
        // Rows above `rows` that nobody will ask for (a crop below the top) are dropped unfinished.
        sums.trim(below: rows.lowerBound)
        consumed = max(consumed, firstNeed[rows.lowerBound])
        let end = needEnd[rows.upperBound - 1]
        // Whole pulls even past `end` (their rows go into later output rows early), so that pulls stay aligned
        // with the input's strips and it never has to move rows it kept.
        while consumed < end {
            let pulled = consumed..<min(needEnd[needEnd.count - 1], consumed + pullRows)
            add(pulled, from: try pull(pulled), weights: weights)
            consumed = pulled.upperBound
        }
        start(upTo: rows.upperBound)
        output.update(from: sums.rows.assumingMemoryBound(to: Float.self), count: rows.count * rowFloats)
        sums.trim(below: rows.upperBound)
    }

    /// Adds input rows `pulled` into every output row that reads them, splitting the row's floats among the workers.
    private func add(_ pulled: Range<Int>, from view: RowView, weights: ResampleWeights) {
        let first = sums.first
        var reader = sums.end
        while reader < spans.count && spans[reader].lowerBound < pulled.upperBound { reader += 1 }
        start(upTo: reader)
        // Per output row reached: its slot and the taps that fall in `pulled`, in input order.
        var slots: [Int] = [], tapStart: [Int] = [0], sources: [UnsafeRawPointer] = [], factors: [Float] = []
        let taps = weights.taps
        weights.indices.withUnsafeBufferPointer { indices in
            weights.weights.withUnsafeBufferPointer { w in
                for o in first..<reader where spans[o].upperBound >= pulled.lowerBound {
                    for t in 0..<taps {
                        let row = Int(indices[o * taps + t]), weight = w[o * taps + t]
                        guard weight != 0, pulled.contains(row) else { continue }
                        sources.append(UnsafeRawPointer(view.bytes(row)))
                        factors.append(weight)
                    }
                    if sources.count > tapStart[tapStart.count - 1] {
                        slots.append(o - first)
                        tapStart.append(sources.count)
                    }
                }
            }
        }
        guard !slots.isEmpty else { return }
        let n = rowFloats, storage = sums.rows.assumingMemoryBound(to: Float.self), avx2 = fr_kernels_avx2() != 0, widest = factors.count
        if let sampleChannels {
            addSamples(slots: slots, tapStart: tapStart, sources: sources, factors: factors, channels: sampleChannels)
            return
        }
        // Columns in units of 32 floats (one AVX2 step of four registers), at least 2 048 floats a chunk.
        WorkerPool.forEachChunk(0..<(n + 31) / 32, minChunk: 64) { units in
            let lo = units.lowerBound * 32, length = min(n, units.upperBound * 32) - lo
            withUnsafeTemporaryAllocation(of: UnsafePointer<Float>?.self, capacity: widest) { shifted in
                factors.withUnsafeBufferPointer { k in
                    for (s, slot) in slots.enumerated() {
                        let out = storage + slot * n + lo
                        let taps = tapStart[s]..<tapStart[s + 1]
                        if avx2 {
                            for t in taps {
                                shifted[t - taps.lowerBound] = sources[t].assumingMemoryBound(to: Float.self) + lo
                            }
                            fr_vertical_taps_avx2(out, shifted.baseAddress, k.baseAddress! + taps.lowerBound,
                                                  Int32(taps.count), length, 1)
                        } else {
                            for t in taps {
                                let src = sources[t].assumingMemoryBound(to: Float.self) + lo, weight = k[t]
                                for i in 0..<length { out[i] += weight * src[i] }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `add` for rows of 8-bit samples: each output row's taps read their codes (`fr_vertical_taps8`), columns split
    /// among the workers as for floats.
    private func addSamples(slots: [Int], tapStart: [Int], sources: [UnsafeRawPointer], factors: [Float],
                            channels: Int) {
        let n = rowFloats, storage = sums.rows.assumingMemoryBound(to: Float.self), widest = factors.count
        // Columns in units of eight pixels, at least 512 pixels a chunk.
        WorkerPool.forEachChunk(0..<(n / 4 + 7) / 8, minChunk: 64) { units in
            let lo = units.lowerBound * 8, length = min(n / 4, units.upperBound * 8) - lo
            withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>?.self, capacity: widest) { shifted in
                factors.withUnsafeBufferPointer { k in
                    for (s, slot) in slots.enumerated() {
                        let taps = tapStart[s]..<tapStart[s + 1]
                        for t in taps {
                            shifted[t - taps.lowerBound] = sources[t].assumingMemoryBound(to: UInt8.self) + lo * channels
                        }
                        fr_vertical_taps8(storage + slot * n + lo * 4, shifted.baseAddress, k.baseAddress! + taps.lowerBound,
                                          Int32(taps.count), length, Int32(channels), 1)
                    }
                }
            }
        }
    }

    /// Zeroes output rows up to `end` that have not been started.
    private func start(upTo end: Int) {
        guard end > sums.end else { return }
        let rows = end - sums.end
        sums.append(rows).initializeMemory(as: Float.self, repeating: 0, count: rows * rowFloats)
    }
}
