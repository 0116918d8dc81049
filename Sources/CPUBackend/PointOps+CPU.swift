import FilterCore

/// A per-pixel operation's CPU kernel: eight pixels a block, planar, on straight colour (Vulkan's is the GLSL of
/// PointOps+Vulkan.swift; CrossBackendTests hold the two together). Each of FilterCore's `PointOps` conforms here.
protocol CPUPointOp: PointOpDescriptor {
    /// Applies the operation to `count` blocks of straight-alpha pixels, the first pixel at (x, y) of a
    /// width×height image.
    func apply(_ blocks: UnsafeMutablePointer<PixelBlock>, count: Int, x: Int, y: Int, width: Int, height: Int)
}

/// A chain of per-pixel operations' CPU kernels, reached through their descriptors once — when a stage is made,
/// not for every row.
struct CPUPointOps {
    let kernels: [any CPUPointOp]

    init(_ ops: [PointOp]) {
        kernels = ops.map { op in
            // Every descriptor has a kernel here (PrimitiveKernelTests and PrimitiveEncodingTests check every operation).
            guard let kernel = op.descriptor as? any CPUPointOp else { preconditionFailure("no CPU kernel for \(op)") }
            return kernel
        }
    }

    var isEmpty: Bool { kernels.isEmpty }
}

extension PointOps.Matrix: CPUPointOp {
    func apply(_ blocks: UnsafeMutablePointer<PixelBlock>, count: Int, x: Int, y: Int, width: Int, height: Int) {
        let m = matrix.m, o = matrix.offset
        let rows = (SIMD4(m[0], m[1], m[2], m[3]), SIMD4(m[4], m[5], m[6], m[7]),
                    SIMD4(m[8], m[9], m[10], m[11]), SIMD4(m[12], m[13], m[14], m[15]))
        @inline(__always) func row(_ k: SIMD4<Float>, _ offset: Float, _ v: PixelBlock) -> SIMD8<Float> {
            var out = SIMD8(repeating: offset)
            out += v.r * k[0]
            out += v.g * k[1]
            out += v.b * k[2]
            out += v.a * k[3]
            return out
        }
        for i in 0..<count {
            let v = blocks[i]
            blocks[i] = PixelBlock(r: row(rows.0, o[0], v), g: row(rows.1, o[1], v), b: row(rows.2, o[2], v),
                                   a: row(rows.3, o[3], v))
        }
    }
}

extension PointOps.Gamma: CPUPointOp {
    func apply(_ blocks: UnsafeMutablePointer<PixelBlock>, count: Int, x: Int, y: Int, width: Int, height: Int) {
        let p = power
        for i in 0..<count { blocks[i].mapColour { FastMath.signedPow($0, p) } }
    }
}

extension PointOps.Levels: CPUPointOp {
    func apply(_ blocks: UnsafeMutablePointer<PixelBlock>, count: Int, x: Int, y: Int, width: Int, height: Int) {
        let scale = 1 / (inWhite - inBlack), inverse = 1 / gamma
        for i in 0..<count {
            blocks[i].mapColour { v in
                var t = (v - inBlack) * scale
                t = t.replacing(with: 0, where: t .< 0)
                t = t.replacing(with: 1, where: t .> 1)
                return outBlack + (outWhite - outBlack) * (gamma == 1 ? t : FastMath.pow(t, inverse))
            }
        }
    }
}

extension PointOps.Curves: CPUPointOp {
    func apply(_ blocks: UnsafeMutablePointer<PixelBlock>, count: Int, x: Int, y: Int, width: Int, height: Int) {
        // A block's floats lie channel after channel, eight each: r at 0, g at 8, b at 16.
        let floats = UnsafeMutableRawPointer(blocks).assumingMemoryBound(to: Float.self)
        func applyCurve(_ curve: ToneCurve?, to channels: Range<Int>) {
            curve?.table.withUnsafeBufferPointer { table in
                for i in 0..<count {
                    for c in channels { ToneCurve.lookUp(floats + 32 * i + 8 * c, count: 8, in: table) }
                }
            }
        }
        applyCurve(red, to: 0..<1)
        applyCurve(green, to: 1..<2)
        applyCurve(blue, to: 2..<3)
        applyCurve(master, to: 0..<3)
    }
}

extension PointOps.Threshold: CPUPointOp {
    func apply(_ blocks: UnsafeMutablePointer<PixelBlock>, count: Int, x: Int, y: Int, width: Int, height: Int) {
        for i in 0..<count {
            let t = SIMD8<Float>(repeating: 0).replacing(with: 1, where: blocks[i].luminance .>= level)
            blocks[i].r = t; blocks[i].g = t; blocks[i].b = t
        }
    }
}

extension PointOps.Posterize: CPUPointOp {
    func apply(_ blocks: UnsafeMutablePointer<PixelBlock>, count: Int, x: Int, y: Int, width: Int, height: Int) {
        let n = levels - 1
        for i in 0..<count {
            blocks[i].mapColour { v in
                var c = v.replacing(with: 0, where: v .< 0)
                c = c.replacing(with: 1, where: c .> 1)
                return FastMath.roundHalfUp(c * n) / n
            }
        }
    }
}

extension PointOps.Vibrance: CPUPointOp {
    func apply(_ blocks: UnsafeMutablePointer<PixelBlock>, count: Int, x: Int, y: Int, width: Int, height: Int) {
        for i in 0..<count {
            let v = blocks[i], y = v.luminance
            var high = v.r.replacing(with: v.g, where: v.g .> v.r)
            high = high.replacing(with: v.b, where: v.b .> high)
            var low = v.r.replacing(with: v.g, where: v.g .< v.r)
            low = low.replacing(with: v.b, where: v.b .< low)
            var spread = high - low
            spread = spread.replacing(with: 0, where: spread .< 0)
            spread = spread.replacing(with: 1, where: spread .> 1)
            let k = 1 + amount * (1 - spread)
            blocks[i].mapColour { y + ($0 - y) * k }
        }
    }
}

extension PointOps.Vignette: CPUPointOp {
    func apply(_ blocks: UnsafeMutablePointer<PixelBlock>, count: Int, x: Int, y: Int, width: Int, height: Int) {
        let cx = Float(width) / 2, cy = Float(height) / 2
        let dy = Float(y) + 0.5 - cy, halfDiagonal = (cx * cx + cy * cy).squareRoot()
        let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        for i in 0..<count {
            let dx = lanes + (Float(x + 8 * i) + 0.5 - cx)
            let d = (dx * dx + dy * dy).squareRoot() / halfDiagonal
            var t = SIMD8<Float>(repeating: 1)
            if radius > 0 { t = (d / radius).replacing(with: 1, where: d / radius .> 1) }
            let f = 1 - intensity * t * t
            blocks[i].r *= f; blocks[i].g *= f; blocks[i].b *= f
        }
    }
}

extension PointOps.Clamp: CPUPointOp {
    func apply(_ blocks: UnsafeMutablePointer<PixelBlock>, count: Int, x: Int, y: Int, width: Int, height: Int) {
        for i in 0..<count {
            blocks[i].mapColour { v in
                v.replacing(with: low, where: v .< low).replacing(with: high, where: v .> high)
            }
            let a = blocks[i].a
            blocks[i].a = a.replacing(with: 0, where: .!(a .> 0)).replacing(with: 1, where: a .> 1)
        }
    }
}

extension PointOps.ClearTransparent: CPUPointOp {
    func apply(_ blocks: UnsafeMutablePointer<PixelBlock>, count: Int, x: Int, y: Int, width: Int, height: Int) {
        for i in 0..<count {
            let clear = blocks[i].a .== 0
            blocks[i].mapColour { $0.replacing(with: 0, where: clear) }
        }
    }
}

extension PointOps.LUT: CPUPointOp {
    func apply(_ blocks: UnsafeMutablePointer<PixelBlock>, count: Int, x: Int, y: Int, width: Int, height: Int) {
        let floats = UnsafeMutableRawPointer(blocks).assumingMemoryBound(to: Float.self)
        for i in 0..<count {
            let block = floats + 32 * i
            for lane in 0..<8 {
                let c = SIMD3(block[lane], block[8 + lane], block[16 + lane])
                let v = c.replacing(with: lut.domainMin, where: .!(c .> lut.domainMin))
                    .replacing(with: lut.domainMax, where: c .> lut.domainMax)
                let out = v + strength * (lut.apply(v, tetrahedral: tetrahedral) - v)
                block[lane] = out.x; block[8 + lane] = out.y; block[16 + lane] = out.z
            }
        }
    }
}

extension PointOps.Transfer: CPUPointOp {
    func apply(_ blocks: UnsafeMutablePointer<PixelBlock>, count: Int, x: Int, y: Int, width: Int, height: Int) {
        for i in 0..<count {
            if conversion == .encode { blocks[i].mapColour(PointOp.srgbEncoded) }
            if conversion == .decode { blocks[i].mapColour(PointOp.srgbDecoded) }
        }
    }
}

extension PointOp {
    /// The sRGB encoding of linear values clamped to [0, 1] (IEC 61966-2-1).
    package static func srgbEncoded(_ v: SIMD8<Float>) -> SIMD8<Float> {
        let x = v.replacing(with: 0, where: .!(v .> 0)).replacing(with: 1, where: v .> 1)
        let curve = 1.055 * FastMath.pow(x.replacing(with: 1, where: x .<= 0.0031308), 1 / 2.4) - 0.055
        return curve.replacing(with: 12.92 * x, where: x .<= 0.0031308)
    }

    /// Linear values of sRGB-encoded ones (IEC 61966-2-1), sign kept below 0.
    package static func srgbDecoded(_ v: SIMD8<Float>) -> SIMD8<Float> {
        let x = v.replacing(with: -v, where: v .< 0)
        let curve = FastMath.pow((x.replacing(with: 1, where: x .<= 0.04045) + 0.055) / 1.055, 2.4)
        let linear = curve.replacing(with: x / 12.92, where: x .<= 0.04045)
        return linear.replacing(with: -linear, where: v .< 0)
    }

}
