import CKernels
import FilterCore

/// The node-sized rectangle at (x, y) of the input, in either representation.
final class CropStage: Stage {
    let x: Int, y: Int

    init(x: Int, y: Int, node: Plan.Node, stats: RenderStats) {
        self.x = x
        self.y = y
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        let rowBytes = width * pixelBytes
        for row in rows {
            (output + (row - rows.lowerBound) * rowBytes).copyMemory(from: inputs[0].bytes(row + y) + x * pixelBytes,
                                                                     byteCount: rowBytes)
        }
    }
}

/// The input on a larger canvas of one colour, in either representation (`fill` is one pixel of it).
final class PadStage: Stage {
    let top: Int, left: Int, fill: [UInt8], inputWidth: Int, inputHeight: Int

    init(top: Int, left: Int, fill: [UInt8], input: Plan.Node, node: Plan.Node, stats: RenderStats) {
        self.top = top
        self.left = left
        self.fill = fill
        inputWidth = input.width
        inputHeight = input.height
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        let bpp = pixelBytes
        for row in rows {
            let out = (output + (row - rows.lowerBound) * width * bpp).assumingMemoryBound(to: UInt8.self)
            fr_fill_pixels(out, width, fill, Int32(bpp))
            let source = row - top
            if source >= 0 && source < inputHeight {
                (out + left * bpp).update(from: inputs[0].bytes(source).assumingMemoryBound(to: UInt8.self),
                                          count: inputWidth * bpp)
            }
        }
    }
}

/// Flips, turns and transposes in either representation: each output pixel copies one input pixel, found by a
/// fixed step along the output row and another down it (`fr_remap`). A horizontal flip reads its own rows; the rest
/// read the whole input, which is held whole (as samples where the plan keeps them: 3 bytes a pixel for a JPEG).
final class ReorientStage: Stage {
    /// Maps an output pixel to the input pixel it copies.
    let mapping: Reorientation
    let inputWidth: Int, inputHeight: Int

    init(_ mapping: Reorientation, input: Plan.Node, node: Plan.Node, stats: RenderStats) {
        self.mapping = mapping
        inputWidth = input.width
        inputHeight = input.height
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        let input = inputs[0], bpp = pixelBytes, w = inputWidth, h = inputHeight, mapping = mapping
        let stride = input.rowBytes, outStride = width * bpp, width = width
        parallelRows(rows) { chunk in
            let y = chunk.lowerBound
            // The input pixel of output (0, y), and the byte steps along x and y.
            let (origin, dx, dy): (UnsafeMutableRawPointer, Int, Int)
            switch mapping {
            case .flipHorizontal: (origin, dx, dy) = (input.bytes(y) + (w - 1) * bpp, -bpp, stride)
            case .flipVertical: (origin, dx, dy) = (input.bytes(h - 1 - y), bpp, -stride)
            case .rotate180: (origin, dx, dy) = (input.bytes(h - 1 - y) + (w - 1) * bpp, -bpp, -stride)
            case .rotate90: (origin, dx, dy) = (input.bytes(h - 1) + y * bpp, -stride, bpp)  // in(y, h − 1 − x)
            case .rotate270: (origin, dx, dy) = (input.bytes(0) + (w - 1 - y) * bpp, stride, -bpp)  // in(w − 1 − y, x)
            case .transpose: (origin, dx, dy) = (input.bytes(0) + y * bpp, stride, bpp)
            }
            let out = (output + (y - rows.lowerBound) * outStride).assumingMemoryBound(to: UInt8.self)
            fr_remap(out, outStride, width, chunk.count, origin.assumingMemoryBound(to: UInt8.self), dx, dy, Int32(bpp))
        }
    }
}
