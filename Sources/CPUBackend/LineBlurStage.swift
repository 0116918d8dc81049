import CKernels
import FilterCore

/// Motion and zoom blurs (`Primitive.lineBlur`): each output pixel the mean of bilinear samples along its segment
/// (`LineBlur.Path`). A motion blur runs as its fixed sparse kernel; a zoom, whose samples move with the pixel, as
/// the definition sample by sample in C (`fr_zoom_blur_row`, the Vulkan kernel's float32 order).
final class LineBlurStage: Stage {
    let blur: LineBlur

    init(_ blur: LineBlur, node: Plan.Node, stats: RenderStats) {
        self.blur = blur
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        switch blur.path {
        case let .motion(dx, dy, count):
            motion(rows, input: inputs[0], taps: LineBlur.motionTaps(dx: dx, dy: dy, count: count), into: output)
        case let .zoom(cx, cy, s):
            // The band's rows by index, for the C loop.
            let input = inputs[0], width = width, height = height
            let pointers = (0..<input.count).map { UnsafePointer(input.row(input.first + $0)) as UnsafePointer<Float>? }
            parallelRows(rows) { chunk in
                pointers.withUnsafeBufferPointer { band in
                    for y in chunk {
                        fr_zoom_blur_row(output + (y - rows.lowerBound) * width * 4, band.baseAddress, Int32(input.first),
                                         Int32(width), Int32(height), Int32(y), cx, cy, s)
                    }
                }
            }
        }
    }

    /// A motion blur as its fixed sparse kernel (`LineBlur.motionTaps`): a few multiply-adds a sample.
    private func motion(_ rows: Range<Int>, input: RowView, taps: (offsets: [(dx: Int, dy: Int)], weights: [Float]),
                        into output: UnsafeMutablePointer<Float>) {
        let kernel = SparseTaps(offsets: taps.offsets, weights: taps.weights), width = width, avx2 = fr_kernels_avx2() != 0
        parallelRows(rows) { chunk in
            kernel.apply(chunk, input: input, width: width, straight: false, avx2: avx2, into: output, first: rows.lowerBound)
        }
    }
}
