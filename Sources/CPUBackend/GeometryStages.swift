import FilterCore

/// The node-sized rectangle at (x, y) of the input.
final class CropStage: Stage {
    let x: Int, y: Int

    init(x: Int, y: Int, node: Plan.Node, stats: RenderStats) {
        self.x = x
        self.y = y
        super.init(node: node, stats: stats)
    }


    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        for row in rows {
            (output + (row - rows.lowerBound) * width * 4).update(from: inputs[0].row(row + y) + x * 4, count: width * 4)
        }
    }
}

/// The input on a larger canvas of one colour.
final class PadStage: Stage {
    let top: Int, left: Int, fill: SIMD4<Float>, inputWidth: Int, inputHeight: Int

    init(top: Int, left: Int, fill: SIMD4<Float>, input: Plan.Node, node: Plan.Node, stats: RenderStats) {
        self.top = top
        self.left = left
        self.fill = fill
        inputWidth = input.width
        inputHeight = input.height
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        for row in rows {
            let out = UnsafeMutableRawPointer(output + (row - rows.lowerBound) * width * 4)
                .assumingMemoryBound(to: SIMD4<Float>.self)
            out.update(repeating: fill, count: width)
            let source = row - top
            if source >= 0 && source < inputHeight {
                (out + left).update(from: inputs[0].pixels(source), count: inputWidth)
            }
        }
    }
}

/// Mirrors each row.
final class FlipHorizontalStage: Stage {
    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width
        parallelRows(rows) { chunk in
            for y in chunk {
                let src = input.pixels(y)
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<width { out[x] = src[width - 1 - x] }
            }
        }
    }
}

/// Vertical flip, rotations and transpose: each output row reads the whole input, so the input is held whole.
final class ReorientStage: Stage {
    /// Maps an output pixel to the input pixel it copies.
    enum Mapping { case flipVertical, rotate90, rotate180, rotate270, transpose }
    let mapping: Mapping
    let inputWidth: Int, inputHeight: Int

    init(_ mapping: Mapping, input: Plan.Node, node: Plan.Node, stats: RenderStats) {
        self.mapping = mapping
        inputWidth = input.width
        inputHeight = input.height
        super.init(node: node, stats: stats)
    }

    override func inputRows(for rows: Range<Int>, input: Int) -> Range<Int> { 0..<inputHeight }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, w = inputWidth, h = inputHeight, mapping = mapping
        parallelRows(rows) { chunk in
            for y in chunk {
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                switch mapping {
                case .flipVertical:
                    out.update(from: input.pixels(h - 1 - y), count: width)
                case .rotate180:
                    let src = input.pixels(h - 1 - y)
                    for x in 0..<width { out[x] = src[w - 1 - x] }
                case .rotate90:  // out(x, y) = in(y, h − 1 − x)
                    for x in 0..<width { out[x] = input.pixels(h - 1 - x)[y] }
                case .rotate270:  // out(x, y) = in(w − 1 − y, x)
                    for x in 0..<width { out[x] = input.pixels(x)[w - 1 - y] }
                case .transpose:
                    for x in 0..<width { out[x] = input.pixels(x)[y] }
                }
            }
        }
    }
}

/// Affine resampling (rotate by any angle, affine): every output pixel samples the input at the map's position with
/// the 2D kernel, widened where the map shrinks; taps outside the input read the background colour.
final class AffineStage: Stage {
    let map: AffineMap, kernel: ResampleKernel, background: SIMD4<Float>, inputWidth: Int, inputHeight: Int

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
        parallelRows(rows) { chunk in
            let wx = UnsafeMutablePointer<Double>.allocate(capacity: capacityX)
            let wy = UnsafeMutablePointer<Double>.allocate(capacity: capacityY)
            defer { wx.deallocate(); wy.deallocate() }
            for y in chunk {
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<width {
                    let p = map.input(Double(x) + 0.5, Double(y) + 0.5)
                    let tx = AffineTaps.at(p.x, kernel: kernel, scale: scale.x, into: wx)
                    let ty = AffineTaps.at(p.y, kernel: kernel, scale: scale.y, into: wy)
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
                    out[x] = ty.count == 0 || tx.count == 0 ? background : SIMD4<Float>(sum)
                }
            }
        }
    }
}
