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
    enum Mapping { case flipHorizontal, flipVertical, rotate90, rotate180, rotate270, transpose }
    let mapping: Mapping
    let inputWidth: Int, inputHeight: Int

    init(_ mapping: Mapping, input: Plan.Node, node: Plan.Node, stats: RenderStats) {
        self.mapping = mapping
        inputWidth = input.width
        inputHeight = input.height
        super.init(node: node, stats: stats)
    }

    override func inputRows(for rows: Range<Int>, input: Int) -> Range<Int> {
        mapping == .flipHorizontal ? super.inputRows(for: rows, input: input) : 0..<inputHeight
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

/// Affine resampling (rotate by any angle, affine): every output pixel samples the input at the map's position with
/// the 2D kernel, widened where the map shrinks; taps outside the input read the background colour.
final class AffineStage: Stage {
    let map: AffineMap, kernel: ResampleKernel, background: SIMD4<Float>, inputWidth: Int, inputHeight: Int

    /// The bicubic sample at `p` when its 4×4 window lies inside the input, else nil.
    @inline(__always)
    static func cubicInterior(_ p: (x: Double, y: Double), _ input: RowView, width w: Int, height h: Int) -> SIMD4<Float>? {
        let ux = p.x - 0.5, uy = p.y - 0.5, fx = ux.rounded(.down), fy = uy.rounded(.down)
        let ix = Int(fx), iy = Int(fy)
        guard ix >= 1, iy >= 1, ix + 2 < w, iy + 2 < h else { return nil }
        let wx = keys(Float(ux - fx)), wy = keys(Float(uy - fy))
        var sum = SIMD4<Float>()
        for j in 0..<4 {
            let line = input.pixels(iy - 1 + j) + (ix - 1)
            var across = line[0] * wx[0]
            across += line[1] * wx[1]
            across += line[2] * wx[2]
            across += line[3] * wx[3]
            sum += across * wy[j]
        }
        return sum
    }

    /// Keys' cubic (a = −½) weights of the taps at −1, 0, 1, 2 for a position t ∈ [0, 1) past tap 0.
    @inline(__always)
    static func keys(_ t: Float) -> SIMD4<Float> {
        let d = SIMD4<Float>(1 + t, t, 1 - t, 2 - t)
        let d2 = d * d
        let near: SIMD4<Float> = (1.5 * d - 2.5) * d2 + 1
        let far: SIMD4<Float> = ((-0.5 * d + 2.5) * d - 4) * d + 2
        return near.replacing(with: far, where: d .> 1)
    }

    init(map: AffineMap, kernel: ResampleKernel, background: SIMD4<Float>, input: Plan.Node, node: Plan.Node,
         stats: RenderStats) {
        self.map = map
        self.kernel = kernel
        self.background = background
        inputWidth = input.width
        inputHeight = input.height
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, w = inputWidth, h = inputHeight
        let map = map, kernel = kernel, background = background
        let scale = map.kernelScale
        let capacityX = AffineTaps.capacity(kernel, scale: scale.x), capacityY = AffineTaps.capacity(kernel, scale: scale.y)
        // A bicubic map that shrinks nowhere (a rotation: its scale is 1 to rounding, an enlargement) reads a 4×4
        // window whose weights have a closed form: away from the edges it needs no kernel evaluation in double.
        let closedForm = kernel == .bicubic && scale.x < 1 + 1e-9 && scale.y < 1 + 1e-9
        parallelRows(rows) { chunk in
            let wx = UnsafeMutablePointer<Double>.allocate(capacity: capacityX)
            let wy = UnsafeMutablePointer<Double>.allocate(capacity: capacityY)
            let fx = UnsafeMutablePointer<Float>.allocate(capacity: capacityX)
            let lines = UnsafeMutablePointer<UnsafeMutablePointer<SIMD4<Float>>>.allocate(capacity: capacityY)
            defer { wx.deallocate(); wy.deallocate(); fx.deallocate(); lines.deallocate() }
            for y in chunk {
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<width {
                    let p = map.input(Double(x) + 0.5, Double(y) + 0.5)
                    if closedForm, let v = Self.cubicInterior(p, input, width: w, height: h) {
                        out[x] = v
                        continue
                    }
                    let tx = AffineTaps.at(p.x, kernel: kernel, scale: scale.x, into: wx)
                    let ty = AffineTaps.at(p.y, kernel: kernel, scale: scale.y, into: wy)
                    if ty.count == 0 || tx.count == 0 {
                        out[x] = background
                    } else if tx.first >= 0 && tx.first + tx.count <= w && ty.first >= 0 && ty.first + ty.count <= h {
                        // Every tap inside the input (most of the image): float weights, no bounds checks.
                        for i in 0..<tx.count { fx[i] = Float(wx[i]) }
                        for j in 0..<ty.count { lines[j] = input.pixels(ty.first + j) + tx.first }
                        var sum = SIMD4<Float>()
                        for j in 0..<ty.count {
                            let line = lines[j]
                            var across = SIMD4<Float>()
                            for i in 0..<tx.count { across += line[i] * fx[i] }
                            sum += across * Float(wy[j])
                        }
                        out[x] = sum
                    } else {
                        var sum = SIMD4<Double>()
                        for j in 0..<ty.count {
                            let row = ty.first + j, weightY = wy[j]
                            if weightY == 0 { continue }
                            var line = SIMD4<Double>()
                            if row < 0 || row >= h {
                                line = SIMD4<Double>(background)
                            } else {
                                let src = input.pixels(row)
                                for i in 0..<tx.count {
                                    let column = tx.first + i
                                    let v = column < 0 || column >= w ? background : src[column]
                                    line += SIMD4<Double>(v) * wx[i]
                                }
                            }
                            sum += line * weightY
                        }
                        out[x] = SIMD4<Float>(sum)
                    }
                }
            }
        }
    }
}
