import CKernels
import FilterCore

/// Warping (rotate by any angle, affine, perspective): every output pixel samples the input at the map's position
/// with the 2D kernel, widened where the map shrinks; taps outside the input, and pixels behind the view, read the
/// background colour.
///
/// A rotation reads input rows along a slanted line, so a strip of output needs a band of input as tall as the
/// image is wide times the sine of the angle — up to the whole input. Where the plan lets it
/// (`Plan.Node.readsSamples`), that band stays the source's 8-bit samples and each tap is read through a table;
/// otherwise it is working floats, four times the bytes of an RGBA photo and five times an RGB one's.
final class WarpStage: Stage {
    let map: WarpMap, kernel: ResampleKernel, background: SIMD4<Float>, inputWidth: Int, inputHeight: Int
    /// When the input arrives as 8-bit samples: their format and the working value of each code (colour codes, then
    /// alpha codes).
    let samples: (format: PixelFormat, table: [Float])?
    let space: WorkingSpace

    init(map: WarpMap, kernel: ResampleKernel, background: SIMD4<Float>, input: Plan.Node, node: Plan.Node,
         space: WorkingSpace, stats: RenderStats) {
        self.map = map
        self.kernel = kernel
        self.background = background
        inputWidth = input.width
        inputHeight = input.height
        self.space = space
        if node.readsSamples, case .samples(let format, _) = input.representation {
            let colour = PixelConverter.table8(space)
            samples = (format, colour + (0..<256).map { Float($0) / 255 })
        } else {
            samples = nil
        }
        super.init(node: node, stats: stats)
    }

    /// A perspective reading samples keeps strips of about 1 MiB as held: both sides of a strip take 1–4 bytes a
    /// pixel rather than 16, so strips may be that much taller (up to 64 rows), and each strip's wait for its
    /// slowest worker comes that many times less often (the keystone of a 20 MP photo: 0.276 → 0.245 s,
    /// 27 → 29 MiB). A rotation's band already holds the photo: taller strips held 1–4 MiB more, and its memory
    /// is what it must save.
    override func connect(_ input: Stage) {
        super.connect(input)
        guard let samples, pixelBytes < 16, !map.isAffine else { return }
        let inputBytes = input.width * samples.format.bytesPerPixel
        stripHeight = max(stripHeight, min(64, (1 << 20) / max(1, width * pixelBytes), (1 << 20) / max(1, inputBytes)))
    }

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

    /// Lanczos-3's six normalised tap weights (taps −2…3) at t = i / `lanczosSteps` past tap 0, i = 0…steps: what
    /// the C loop interpolates, computed once in double from the kernel's definition.
    static let lanczosSteps = 1024
    static let lanczosWeights: [Float] = (0...lanczosSteps).flatMap { i -> [Float] in
        let t = Double(i) / Double(lanczosSteps)
        let w = (-2...3).map { ResampleKernel.lanczos3.weight(Double($0) - t) }
        let sum = w.reduce(0, +)
        return w.map { Float($0 / sum) }
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

    /// Whether every tap of a sample at `p` lies outside the input (it reads the background alone).
    @inline(__always)
    static func outside(_ p: (x: Double, y: Double), support: (x: Double, y: Double), width w: Int, height h: Int) -> Bool {
        let u = p.x - 0.5, v = p.y - 0.5
        return !(u + support.x >= 0 && u - support.x <= Double(w - 1) && v + support.y >= 0 && v - support.y <= Double(h - 1))
    }

    /// The sample at `p` by the kernel's taps in double, each tap read by `pixel` (column and row inside the input)
    /// or the background outside it: the general path, and the edges of the fast ones.
    @inline(__always)
    static func general(_ p: (x: Double, y: Double), kernel: ResampleKernel, scale: (x: Double, y: Double),
                        width w: Int, height h: Int, background: SIMD4<Float>,
                        wx: UnsafeMutablePointer<Double>, wy: UnsafeMutablePointer<Double>,
                        pixel: (Int, Int) -> SIMD4<Float>) -> SIMD4<Float> {
        let tx = WarpTaps.at(p.x, kernel: kernel, scale: scale.x, into: wx)
        let ty = WarpTaps.at(p.y, kernel: kernel, scale: scale.y, into: wy)
        guard tx.count > 0, ty.count > 0 else { return background }
        var sum = SIMD4<Double>()
        for j in 0..<ty.count {
            let row = ty.first + j, weightY = wy[j]
            if weightY == 0 { continue }
            var line = SIMD4<Double>()
            if row < 0 || row >= h {
                line = SIMD4<Double>(background)
            } else {
                for i in 0..<tx.count {
                    let column = tx.first + i
                    let v = column < 0 || column >= w ? background : pixel(column, row)
                    line += SIMD4<Double>(v) * wx[i]
                }
            }
            sum += line * weightY
        }
        return SIMD4<Float>(sum)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        guard let samples else {
            return try compute(rows, inputs: inputs, into: output.assumingMemoryBound(to: Float.self))
        }
        // Held as samples (the plan's choice where nothing but moves follow to an output of this layout): each row
        // is rounded as the output would round it.
        var rounding: PixelConverter?
        if case .samples(let format, _) = representation { rounding = PixelConverter(format: format, space: space) }
        computeFromSamples(rows, input: inputs[0], format: samples.format, table: samples.table, rounding: rounding,
                           into: output)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, w = inputWidth, h = inputHeight
        let map = map, kernel = kernel, background = background, affine = map.isAffine
        // An affine map's widening is the same everywhere (`bound`); a projective one's bound sizes the tap buffers.
        let bound = map.kernelScale
        let capacityX = WarpTaps.capacity(kernel, scale: bound.x), capacityY = WarpTaps.capacity(kernel, scale: bound.y)
        parallelRows(rows) { chunk in
            let wx = UnsafeMutablePointer<Double>.allocate(capacity: capacityX)
            let wy = UnsafeMutablePointer<Double>.allocate(capacity: capacityY)
            let fx = UnsafeMutablePointer<Float>.allocate(capacity: capacityX)
            let lines = UnsafeMutablePointer<UnsafeMutablePointer<SIMD4<Float>>>.allocate(capacity: capacityY)
            defer { wx.deallocate(); wy.deallocate(); fx.deallocate(); lines.deallocate() }
            for y in chunk {
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                let cy = Double(y) + 0.5
                for x in 0..<width {
                    let cx = Double(x) + 0.5
                    let p: (x: Double, y: Double)
                    if affine {
                        p = map.input(cx, cy)
                    } else if let q = map.point(cx, cy) {
                        p = q
                    } else {
                        out[x] = background
                        continue
                    }
                    let scale = affine ? bound : map.scale(at: cx, cy, p)
                    // A bicubic sample that shrinks nowhere (a rotation, an enlargement) reads a 4×4 window whose
                    // weights have a closed form: away from the edges it needs no kernel evaluation in double.
                    if kernel == .bicubic, scale.x < 1 + 1e-9, scale.y < 1 + 1e-9,
                       let v = Self.cubicInterior(p, input, width: w, height: h) {
                        out[x] = v
                        continue
                    }
                    // A rotated canvas is about half background: no weights for those.
                    if Self.outside(p, support: (kernel.radius * scale.x, kernel.radius * scale.y), width: w, height: h) {
                        out[x] = background
                        continue
                    }
                    let tx = WarpTaps.at(p.x, kernel: kernel, scale: scale.x, into: wx)
                    let ty = WarpTaps.at(p.y, kernel: kernel, scale: scale.y, into: wy)
                    if tx.count > 0 && ty.count > 0 && tx.first >= 0 && tx.first + tx.count <= w && ty.first >= 0
                        && ty.first + ty.count <= h {
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
                        out[x] = Self.general(p, kernel: kernel, scale: scale, width: w, height: h, background: background,
                                              wx: wx, wy: wy) { column, row in input.pixels(row)[column] }
                    }
                }
            }
        }
    }

    /// The same samples from 8-bit stored input: the C row loop does every pixel whose window lies inside the
    /// input or wholly outside it; the few that straddle its edge take the general path here. With `rounding`, rows
    /// go out as its samples.
    private func computeFromSamples(_ rows: Range<Int>, input: RowView, format: PixelFormat, table: [Float],
                                    rounding: PixelConverter?, into output: UnsafeMutableRawPointer) {
        let width = width, w = inputWidth, h = inputHeight, map = map, kernel = kernel, background = background
        let scale = map.kernelScale, channels = format.channels
        let capacityX = WarpTaps.capacity(kernel, scale: scale.x), capacityY = WarpTaps.capacity(kernel, scale: scale.y)
        let rowBytes = width * pixelBytes
        table.withUnsafeBufferPointer { table in Self.lanczosWeights.withUnsafeBufferPointer { lanczos in
            var source = fr_affine_source()
            source.base = UnsafePointer(input.base.assumingMemoryBound(to: UInt8.self))
            source.stride = input.rowBytes
            source.first_row = Int32(input.first)
            source.rows = Int32(input.count)
            source.width = Int32(w)
            source.height = Int32(h)
            source.channels = Int32(channels)
            source.table = table.baseAddress
            // In the sRGB working space a colour code's value is code / 255: converted, not looked up.
            source.unit = space == .srgb ? 1 : 0
            source.taps = kernel == .bilinear ? 2 : (kernel == .bicubic ? 4 : 6)
            source.lanczos = lanczos.baseAddress
            source.lanczos_steps = Int32(Self.lanczosSteps)
            source.background = (background[0], background[1], background[2], background[3])
            var projective = fr_projective_map()
            projective.m = (map.a, map.b, map.c, map.d, map.e, map.f, map.g, map.h, map.i)
            projective.max_widening = WarpMap.maxWidening
            let hasAlpha = format.hasAlpha
            // A tap's working value, as the C loop reads it.
            func pixel(_ column: Int, _ row: Int) -> SIMD4<Float> {
                let p = input.bytes(row).assumingMemoryBound(to: UInt8.self) + column * channels
                let a: Float = hasAlpha ? table[256 + Int(p[channels - 1])] : 1
                let v = channels < 3 ? SIMD4(repeating: table[Int(p[0])])
                    : SIMD4(table[Int(p[0])], table[Int(p[1])], table[Int(p[2])], 1)
                var premultiplied = v * a
                premultiplied[3] = a
                return premultiplied
            }
            parallelRows(rows) { chunk in
                var source = source, projective = projective
                let edges = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
                let scratch = rounding == nil ? nil : UnsafeMutablePointer<Float>.allocate(capacity: width * 4)
                let wx = UnsafeMutablePointer<Double>.allocate(capacity: capacityX)
                let wy = UnsafeMutablePointer<Double>.allocate(capacity: capacityY)
                defer { edges.deallocate(); scratch?.deallocate(); wx.deallocate(); wy.deallocate() }
                for y in chunk {
                    let row = output + (y - rows.lowerBound) * rowBytes
                    let out = scratch ?? row.assumingMemoryBound(to: Float.self)
                    let centre = Double(y) + 0.5
                    let straddling: Int
                    if map.isAffine {
                        let u0 = map.a * 0.5 + map.b * centre + map.c - 0.5, v0 = map.d * 0.5 + map.e * centre + map.f - 0.5
                        straddling = fr_affine8_row(out, edges, width, u0, v0, map.a, map.d, &source)
                    } else {
                        straddling = fr_projective8_row(out, edges, width, centre, &projective, &source)
                    }
                    for k in 0..<straddling {
                        let x = Int(edges[k]), c = Double(x) + 0.5
                        // The C loop leaves only pixels in view (w > 0) whose taps straddle the input's edge.
                        let p = map.isAffine ? map.input(c, centre) : (map.point(c, centre) ?? (.infinity, .infinity))
                        let v = Self.general(p, kernel: kernel, scale: map.scale(at: c, centre, p), width: w, height: h,
                                             background: background, wx: wx, wy: wy, pixel: pixel)
                        UnsafeMutableRawPointer(out + 4 * x).storeBytes(of: v, as: SIMD4<Float>.self)
                    }
                    if let rounding, let scratch { rounding.encode(scratch, into: row, width: width) }
                }
            }
        } }
    }
}
