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

    /// A motion blur as its fixed sparse kernel (`LineBlur.motionTaps`): the rows a chunk reads are padded with
    /// their edge pixels (so taps need no bounds check, as clamping each tap would give), then each output row is
    /// one weighted sum of shifted rows (`fr_vertical_taps_avx2`), a few multiply-adds a sample.
    private func motion(_ rows: Range<Int>, input: RowView, taps: (offsets: [(dx: Int, dy: Int)], weights: [Float]),
                        into output: UnsafeMutablePointer<Float>) {
        let width = width, avx2 = fr_kernels_avx2() != 0, (offsets, weights) = taps
        let padX = offsets.map { abs($0.dx) }.max() ?? 0, reach = offsets.map { abs($0.dy) }.max() ?? 0
        parallelRows(rows) { chunk in
            let first = chunk.lowerBound - reach, count = chunk.count + 2 * reach, stride = width + 2 * padX
            let padded = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: count * stride)
            let sources = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: max(1, offsets.count))
            defer { padded.deallocate(); sources.deallocate() }
            for k in 0..<count {
                let src = input.pixels(first + k), row = padded + k * stride + padX
                row.update(from: src, count: width)
                (row - padX).update(repeating: row[0], count: padX)
                (row + width).update(repeating: row[width - 1], count: padX)
            }
            let floats = UnsafeMutableRawPointer(padded).assumingMemoryBound(to: Float.self)
            for y in chunk {
                let out = output + (y - rows.lowerBound) * width * 4
                for (n, o) in offsets.enumerated() {
                    sources[n] = UnsafePointer(floats + ((y - first + o.dy) * stride + padX + o.dx) * 4)
                }
                if avx2 {
                    weights.withUnsafeBufferPointer { w in
                        fr_vertical_taps_avx2(out, sources, w.baseAddress, Int32(offsets.count), width * 4, 0)
                    }
                } else {
                    let pixels = UnsafeMutableRawPointer(out).assumingMemoryBound(to: SIMD4<Float>.self)
                    pixels.update(repeating: SIMD4(), count: width)
                    for n in 0..<offsets.count {
                        let src = UnsafeRawPointer(sources[n]!).assumingMemoryBound(to: SIMD4<Float>.self), k = weights[n]
                        for x in 0..<width { pixels[x] += src[x] * k }
                    }
                }
            }
        }
    }
}
