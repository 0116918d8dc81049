import CKernels
import FilterCore

/// Dilation or erosion (`Primitive.morphology`). Each input row's running extreme is widened one pixel a side at a
/// time (`fr_extreme_widen`: the extreme over ±w is that of ±(w − 1) one pixel left and right) and merged into every
/// output row whose element reaches that row with that half-width (`Morphology.halfWidths`), so a square or a disc
/// costs about 3r operations a sample rather than its area. Works on working floats (premultiplied) and on stored
/// samples, where the extreme of the samples is the sample of the working values' extreme (the decode increases).
final class MorphologyStage: Stage {
    let morphology: Morphology
    private let halfWidths: [Int]

    init(_ morphology: Morphology, node: Plan.Node, stats: RenderStats) {
        self.morphology = morphology
        halfWidths = morphology.halfWidths
        super.init(node: node, stats: stats)
        // Every strip widens the 2r rows around it again: strips of at least 4r rows keep that under half the work.
        stripHeight = max(stripHeight, min(256, 4 * morphology.radius))
    }

    override func connect(_ input: Stage) {
        super.connect(input)
        stripHeight = max(stripHeight, min(256, 4 * morphology.radius))
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        extremes(rows, input: inputs[0], output: UnsafeMutableRawPointer(output), kind: Int32(FR_EXTREME_F32),
                 channels: 4, sampleBytes: 4)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        guard case .samples(let format, _) = representation else {
            return try compute(rows, inputs: inputs, into: output.assumingMemoryBound(to: Float.self))
        }
        let kind = format.bytesPerSample == 1 ? FR_EXTREME_U8 : FR_EXTREME_U16
        extremes(rows, input: inputs[0], output: output, kind: Int32(kind), channels: format.channels,
                 sampleBytes: format.bytesPerSample)
    }

    private func extremes(_ rows: Range<Int>, input: RowView, output: UnsafeMutableRawPointer, kind: Int32,
                          channels: Int, sampleBytes: Int) {
        let r = morphology.radius, widths = halfWidths, width = width
        let isMax: Int32 = morphology.operation == .dilate ? 1 : 0
        let rowSamples = width * channels, rowBytes = rowSamples * sampleBytes
        let paddedSamples = (width + 2 * r) * channels
        let available = input.first..<(input.first + input.count)
        // The value that leaves a maximum or minimum unchanged: what the pixels outside the image count as.
        let identity = Self.identity(kind: kind, isMax: isMax != 0, sampleBytes: sampleBytes)
        func fill(_ row: UnsafeMutableRawPointer, samples: Int) {
            identity.withUnsafeBufferPointer {
                fr_fill_pixels(row.assumingMemoryBound(to: UInt8.self), samples, $0.baseAddress, Int32(sampleBytes))
            }
        }
        WorkerPool.forEachChunk(rows, minChunk: max(8, 2 * r)) { chunk in
            let cur = UnsafeMutableRawPointer.allocate(byteCount: paddedSamples * sampleBytes, alignment: 64)
            let next = UnsafeMutableRawPointer.allocate(byteCount: paddedSamples * sampleBytes, alignment: 64)
            defer { cur.deallocate(); next.deallocate() }
            // The two ends are never written by a widening, so they stay outside values for every row.
            fill(cur, samples: paddedSamples)
            fill(next, samples: paddedSamples)
            var (current, widened) = (cur, next)
            for y in chunk { fill(output + (y - rows.lowerBound) * rowBytes, samples: rowSamples) }
            let band = max(available.lowerBound, chunk.lowerBound - r)..<min(available.upperBound, chunk.upperBound + r)
            for source in band {
                // Output rows this input row reaches, and the widest half-width any of them reads it at.
                let reached = max(chunk.lowerBound, source - r)..<min(chunk.upperBound, source + r + 1)
                guard let widest = reached.map({ widths[source - $0 + r] }).max() else { continue }
                let padBytes = r * channels * sampleBytes
                fill(current, samples: r * channels)
                fill(current + padBytes + rowBytes, samples: r * channels)
                (current + r * channels * sampleBytes).copyMemory(from: input.bytes(source), byteCount: rowBytes)
                var w = 0
                while true {
                    for y in reached where widths[source - y + r] == w {
                        fr_extreme_merge(output + (y - rows.lowerBound) * rowBytes, current + r * channels * sampleBytes,
                                         rowSamples, kind, isMax)
                    }
                    if w == widest { break }
                    fr_extreme_widen(widened, current, channels, paddedSamples - channels, channels, w == 0 ? 1 : 0,
                                     kind, isMax)
                    swap(&current, &widened)
                    w += 1
                }
            }
        }
    }

    private static func identity(kind: Int32, isMax: Bool, sampleBytes: Int) -> [UInt8] {
        switch kind {
        case Int32(FR_EXTREME_F32):
            let value: Float = isMax ? -.infinity : .infinity
            return withUnsafeBytes(of: value) { Array($0) }
        default:
            return [UInt8](repeating: isMax ? 0 : 0xFF, count: sampleBytes)
        }
    }
}
