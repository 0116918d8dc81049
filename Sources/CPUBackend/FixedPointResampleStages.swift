import CKernels
import FilterCore

/// A resample's horizontal pass on opaque 8-bit samples in fixed point (`FixedPointResample`): into 16-bit rows with
/// 6 bits below the code for the vertical pass that finishes it (the node held as `Representation.fixedPoint`), or
/// rounded to samples where it is the only pass.
final class FixedHorizontalResampleStage: Stage {
    let weights: FixedPointResample
    let inputWidth: Int
    let channels: Int

    init(_ weights: FixedPointResample, inputWidth: Int, channels: Int, node: Plan.Node, stats: RenderStats) {
        self.weights = weights
        self.inputWidth = inputWidth
        self.channels = channels
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        let input = inputs[0], width = width, channels = channels, inputWidth = inputWidth, weights = weights
        var rounds = true
        if case .fixedPoint = representation { rounds = false }
        let rowBytes = width * pixelBytes
        weights.indices.withUnsafeBufferPointer { indices in
            weights.weights.withUnsafeBufferPointer { w in
                parallelRows(rows) { chunk in
                    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: (inputWidth + 2) * 4)
                    defer { scratch.deallocate() }
                    for y in chunk {
                        let out = output + (y - rows.lowerBound) * rowBytes
                        fr_resample_h8(rounds ? nil : out.assumingMemoryBound(to: Int16.self),
                                       rounds ? out.assumingMemoryBound(to: UInt8.self) : nil,
                                       input.bytes(y).assumingMemoryBound(to: UInt8.self), inputWidth,
                                       indices.baseAddress, w.baseAddress, Int32(weights.taps), width, Int32(channels),
                                       weights.consecutive.lowerBound, weights.consecutive.upperBound, scratch)
                    }
                }
            }
        }
    }
}

/// A resample's vertical pass finishing the horizontal one's fixed-point rows (`fr_resample_v8`): each output row
/// the weighted sum of the rows its nonzero taps reach, rounded to samples once.
final class FixedVerticalResampleStage: Stage {
    let weights: FixedPointResample

    init(_ weights: FixedPointResample, node: Plan.Node, stats: RenderStats) {
        self.weights = weights
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        let input = inputs[0], n = width * pixelBytes, taps = weights.taps, weights = weights
        weights.indices.withUnsafeBufferPointer { indices in
            weights.weights.withUnsafeBufferPointer { w in
                parallelRows(rows) { chunk in
                    forEachNonzeroTaps(chunk, taps: taps, indices: indices, weights: w,
                                       row: { UnsafePointer(input.bytes($0).assumingMemoryBound(to: Int16.self)) }) { y, sources, kept, count in
                        fr_resample_v8(output.assumingMemoryBound(to: UInt8.self) + (y - rows.lowerBound) * n,
                                       sources, kept, Int32(count), n)
                    }
                }
            }
        }
    }
}
