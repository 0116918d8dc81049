import CKernels
import FilterCore

/// Motion and zoom blurs (`Primitive.lineBlur`): each output pixel the mean of bilinear samples along its segment,
/// `LineBlur.samples(atX:y:)` giving where, in the same float32 order as the Vulkan kernel.
final class LineBlurStage: Stage {
    let blur: LineBlur

    init(_ blur: LineBlur, node: Plan.Node, stats: RenderStats) {
        self.blur = blur
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        if let taps = blur.motionTaps { return motion(rows, input: inputs[0], taps: taps, into: output) }
        let input = inputs[0], width = width, height = height, blur = blur
        parallelRows(rows) { chunk in
            for y in chunk {
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<width {
                    let s = blur.samples(atX: Float(x), y: Float(y))
                    var sum = SIMD4<Float>()
                    for k in 0..<s.count {
                        sum += Self.bilinear(input, x: s.x0 + s.stepX * Float(k), y: s.y0 + s.stepY * Float(k),
                                             width: width, height: height)
                    }
                    out[x] = sum / Float(s.count)
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

    /// The bilinear sample at (x, y) in pixel indices, its four taps clamped to the image.
    @inline(__always)
    static func bilinear(_ input: RowView, x: Float, y: Float, width: Int, height: Int) -> SIMD4<Float> {
        let fx = x.rounded(.down), fy = y.rounded(.down)
        let tx = x - fx, ty = y - fy
        let ix = Int(fx), iy = Int(fy)
        let x0 = min(max(ix, 0), width - 1), x1 = min(max(ix + 1, 0), width - 1)
        let top = input.pixels(min(max(iy, 0), height - 1)), bottom = input.pixels(min(max(iy + 1, 0), height - 1))
        let upper = top[x0] * (1 - tx) + top[x1] * tx
        let lower = bottom[x0] * (1 - tx) + bottom[x1] * tx
        return upper * (1 - ty) + lower * ty
    }
}
