import CKernels
import FilterCore

/// A fused chain of per-pixel operations: each chunk of rows is unpremultiplied once, every operation runs over it
/// while it is in cache, and it is premultiplied back.
final class PointStage: Stage {
    private let kernels: CPUPointOps
    /// Where the node reads its input's stored samples (`Plan.Node.readsSamples`): their conversion, with the
    /// chain's leading per-channel steps folded in where the samples allow.
    private let reading: SampleChain?

    init(_ ops: [PointOp], reading stored: PixelFormat?, space: WorkingSpace, node: Plan.Node, stats: RenderStats) {
        kernels = CPUPointOps(ops)
        reading = stored.map { SampleChain(ops, stored: $0, space: space) }
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, height = height, kernels = kernels, reading = reading
        parallelRows(rows) { chunk in
            for y in chunk {
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                if let reading {
                    reading.run(input.bytes(y), into: out, y: y, width: width, height: height)
                } else {
                    PointKernel.run(kernels, from: input.pixels(y), to: out, y: y, width: width, height: height)
                }
            }
        }
    }
}

/// A chain that mixes channels, from stored samples to the output's samples: each row is converted to working
/// values, taken through the chain and rounded while it is in cache — the working path's arithmetic, to the bit,
/// without its strips of floats (16 bytes a pixel written and read back twice).
final class SamplePointStage: Stage {
    let encoder: PixelConverter
    /// Colour matrices and thresholds on opaque 8-bit grey or RGB (a grayscale, a sepia, a threshold): the C row
    /// loop takes the samples through them straight into working values (`fr_colour_steps8_row`, the same bits).
    let colourSteps: (steps: [fr_colour_step], table: [Float], channels: Int32)?
    /// Otherwise each row converted (the chain's per-channel prefix folded in where it folds) and the rest run.
    let chain: SampleChain

    init(_ ops: [PointOp], from stored: PixelFormat, space: WorkingSpace, node: Plan.Node, stats: RenderStats) {
        guard case .samples(let format, _) = node.representation else { preconditionFailure("a node held as samples") }
        encoder = PixelConverter(format: format, space: space)
        colourSteps = Self.colourSteps(ops, stored: stored, space: space)
        chain = SampleChain(ops, stored: stored, space: space)
        super.init(node: node, stats: stats)
    }

    /// `ops` as the C loop's steps, where they are all colour matrices and thresholds on opaque 8-bit samples.
    static func colourSteps(_ ops: [PointOp], stored: PixelFormat, space: WorkingSpace)
        -> (steps: [fr_colour_step], table: [Float], channels: Int32)? {
        guard stored == .grey8 || stored == .rgb8 else { return nil }
        var steps: [fr_colour_step] = []
        for op in ops {
            var step = fr_colour_step()
            switch op {
            case .matrix(let matrix):
                let m = matrix.m
                step.m = ((m[0], m[1], m[2], m[3]), (m[4], m[5], m[6], m[7]), (m[8], m[9], m[10], m[11]),
                          (m[12], m[13], m[14], m[15]))
                step.offset = (matrix.offset[0], matrix.offset[1], matrix.offset[2], matrix.offset[3])
            case .threshold(let level):
                step.level = level
                step.threshold = 1
            default:
                return nil
            }
            steps.append(step)
        }
        return (steps, PixelConverter.table8(space), Int32(stored.channels))
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        let input = inputs[0], width = width, height = height, chain = chain, encoder = encoder
        let rowBytes = width * pixelBytes, colourSteps = colourSteps
        parallelRows(rows) { chunk in
            let scratch = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
            defer { scratch.deallocate() }
            let floats = UnsafeMutableRawPointer(scratch).assumingMemoryBound(to: Float.self)
            for y in chunk {
                if let colourSteps {
                    colourSteps.steps.withUnsafeBufferPointer { steps in
                        colourSteps.table.withUnsafeBufferPointer { table in
                            fr_colour_steps8_row(floats, input.bytes(y).assumingMemoryBound(to: UInt8.self), colourSteps.channels,
                                                 width, table.baseAddress, steps.baseAddress, Int32(steps.count))
                        }
                    }
                } else {
                    chain.run(input.bytes(y), into: scratch, y: y, width: width, height: height)
                }
                encoder.encode(floats, into: output + (y - rows.lowerBound) * rowBytes, width: width)
            }
        }
    }
}

/// A per-channel chain on stored samples: one table lookup a sample (`SampleTable`).
final class TableStage: Stage {
    let table: SampleTable

    init(_ table: SampleTable, node: Plan.Node, stats: RenderStats) {
        self.table = table
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        table.apply(inputs[0].bytes(rows.lowerBound), to: output, pixels: rows.count * width)
    }
}

/// Row kernels of the point operations: a row goes through 128 pixels at a time, turned into sixteen `PixelBlock`s
/// (unpremultiplied, one vector a channel), taken through every operation while they are in registers and L1, and
/// premultiplied back. The choice of operation is made once per 128 pixels (2 KiB of blocks), not per pixel.
enum PointKernel {
    static let blocks = 16

    /// `run` for a chain used once (a table's entries): its kernels reached here.
    static func run(_ ops: [PointOp], from source: UnsafeMutablePointer<SIMD4<Float>>,
                    to out: UnsafeMutablePointer<SIMD4<Float>>, y: Int, width: Int, height: Int) {
        run(CPUPointOps(ops), from: source, to: out, y: y, width: width, height: height)
    }

    /// Unpremultiplies row `y` of `source` into `out`, applies `ops`, premultiplies back (`source` may be `out`).
    static func run(_ ops: CPUPointOps, from source: UnsafeMutablePointer<SIMD4<Float>>,
                    to out: UnsafeMutablePointer<SIMD4<Float>>, y: Int, width: Int, height: Int) {
        withUnsafeTemporaryAllocation(of: PixelBlock.self, capacity: blocks) { scratch in
            withUnsafeTemporaryAllocation(of: SIMD4<Float>.self, capacity: 8) { tail in
                let block = scratch.baseAddress!
                var start = 0
                while start < width {
                    let pixels = min(8 * blocks, width - start), full = pixels / 8
                    for i in 0..<full { block[i] = PixelBlock(unpremultiplying: source + start + 8 * i) }
                    let rest = pixels - 8 * full
                    if rest > 0 {  // the row's last few pixels, padded with transparent black
                        for i in 0..<8 { tail[i] = i < rest ? source[start + 8 * full + i] : SIMD4() }
                        block[full] = PixelBlock(unpremultiplying: tail.baseAddress!)
                    }
                    let count = full + (rest > 0 ? 1 : 0)
                    for op in ops.kernels { op.apply(block, count: count, x: start, y: y, width: width, height: height) }
                    for i in 0..<full { block[i].storePremultiplied(out + start + 8 * i) }
                    if rest > 0 {
                        block[full].storePremultiplied(tail.baseAddress!)
                        for i in 0..<rest { out[start + 8 * full + i] = tail[i] }
                    }
                    start += pixels
                }
            }
        }
    }
}
