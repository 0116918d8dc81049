import CKernels
import FilterCore

/// Unsharp mask's final step: inputs (original, alpha-weighted blur). Works on straight colour and keeps alpha, so
/// flat colour stays flat across alpha edges; the same as before for opaque pixels.
final class UnsharpCombineStage: Stage {
    let amount: Float, threshold: Float

    init(amount: Float, threshold: Float, node: Plan.Node, stats: RenderStats) {
        self.amount = amount
        self.threshold = threshold
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let original = inputs[0], blurred = inputs[1], width = width, amount = amount, threshold = threshold
        parallelRows(rows) { chunk in
            if fr_kernels_avx2() != 0 {
                for y in chunk {
                    fr_unsharp_combine_avx2(output + (y - rows.lowerBound) * width * 4, original.row(y), blurred.row(y),
                                            width, amount, threshold)
                }
                return
            }
            for y in chunk {
                let a = original.pixels(y), b = blurred.pixels(y)
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<width {
                    let alpha = a[x][3], blurredAlpha = b[x][3]
                    let colour = alpha > 0 ? a[x] / alpha : SIMD4()
                    var d = blurredAlpha > 0 ? colour - b[x] / blurredAlpha : SIMD4()
                    if threshold > 0 {
                        let magnitude = d.replacing(with: -d, where: d .< 0)
                        d = d.replacing(with: 0, where: magnitude .< threshold)
                    }
                    var v = (colour + d * amount) * alpha
                    v[3] = alpha
                    out[x] = v
                }
            }
        }
    }
}

/// Separable blend of a source onto a backdrop (W3C Compositing, premultiplied). The source may be smaller than the
/// backdrop: it is transparent outside its bounds.
final class BlendStage: PixelMixStage {
    /// One row: source pixels (nil below the source), backdrop pixels, the result.
    typealias Kernel = @Sendable (UnsafeMutablePointer<SIMD4<Float>>?, UnsafeMutablePointer<SIMD4<Float>>,
                                  UnsafeMutablePointer<SIMD4<Float>>, Int) -> Void
    private let kernel: Kernel

    init(mode: BlendMode, opacity: Float, inputs: [Stage], node: Plan.Node, space: WorkingSpace, stats: RenderStats) {
        let sourceWidth = inputs[0].width
        // `vector`: the mode's AVX2 loop (`fr_blend_row_avx2`, the same bits), where it has one.
        func kernel<F: BlendFunction>(_ f: F.Type, _ vector: fr_blend_mode? = nil) -> Kernel {
            { source, backdrop, out, width in
                var x = 0
                if let source {
                    let count = min(width, sourceWidth)
                    if let vector, fr_kernels_avx2() != 0 {
                        x = fr_blend_row_avx2(Self.floats(out), Self.floats(source), Self.floats(backdrop), count,
                                              opacity, vector)
                    }
                    while x < count {
                        out[x] = composite(F.self, source[x] * opacity, backdrop[x])
                        x += 1
                    }
                }
                while x < width {  // outside the source: the backdrop
                    out[x] = backdrop[x]
                    x += 1
                }
            }
        }
        switch mode {
        case .normal: self.kernel = kernel(Blend.Normal.self, FR_BLEND_NORMAL)
        case .multiply: self.kernel = kernel(Blend.Multiply.self, FR_BLEND_MULTIPLY)
        case .screen: self.kernel = kernel(Blend.Screen.self, FR_BLEND_SCREEN)
        case .overlay: self.kernel = kernel(Blend.Overlay.self)
        case .softLight: self.kernel = kernel(Blend.SoftLight.self)
        case .hardLight: self.kernel = kernel(Blend.HardLight.self)
        case .darken: self.kernel = kernel(Blend.Darken.self, FR_BLEND_DARKEN)
        case .lighten: self.kernel = kernel(Blend.Lighten.self, FR_BLEND_LIGHTEN)
        case .difference: self.kernel = kernel(Blend.Difference.self, FR_BLEND_DIFFERENCE)
        case .exclusion: self.kernel = kernel(Blend.Exclusion.self, FR_BLEND_EXCLUSION)
        case .add: self.kernel = kernel(Blend.Add.self, FR_BLEND_ADD)
        case .subtract: self.kernel = kernel(Blend.Subtract.self, FR_BLEND_SUBTRACT)
        case .colorDodge: self.kernel = kernel(Blend.ColorDodge.self)
        case .colorBurn: self.kernel = kernel(Blend.ColorBurn.self)
        case .hue: self.kernel = kernel(Blend.Hue.self)
        case .saturation: self.kernel = kernel(Blend.Saturation.self)
        case .color: self.kernel = kernel(Blend.Color.self)
        case .luminosity: self.kernel = kernel(Blend.Luminosity.self)
        }
        super.init(inputs: inputs, node: node, space: space, stats: stats)
    }

    override func mix(_ y: Int, _ rows: UnsafeMutablePointer<UnsafeMutablePointer<SIMD4<Float>>?>,
                      into out: UnsafeMutablePointer<SIMD4<Float>>) {
        kernel(rows[0], rows[1]!, out, width)
    }

    /// Where the source's row is clear, the result is the backdrop's row (an overlay, a watermark's empty rows).
    override func passesThrough(_ clear: (Int) -> Bool) -> Int? { clear(0) ? 1 : nil }

    private static func floats(_ pixels: UnsafeMutablePointer<SIMD4<Float>>) -> UnsafeMutablePointer<Float> {
        UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: Float.self)
    }
}

/// co = cs(1 − αb) + cb(1 − αs) + αs·αb·B(Cb, Cs); αo = αs + αb(1 − αs). Inputs and output premultiplied.
@inline(__always)
func composite<F: BlendFunction>(_ f: F.Type, _ s: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
    let aS = s[3], aB = b[3]
    let straightS = aS > 0 ? s / aS : SIMD4<Float>()
    let straightB = aB > 0 ? b / aB : SIMD4<Float>()
    var out = s * (1 - aB) + b * (1 - aS) + F.apply(straightB, straightS) * (aS * aB)
    out[3] = aS + aB * (1 - aS)
    return out
}

/// mix(background, foreground, m) with m = luminance × alpha of the (straight) mask.
final class BlendWithMaskStage: PixelMixStage {
    /// The mask's weight is its sRGB-encoded straight luminance × alpha (linear working space, coverage masks).
    let encodedMask: Bool

    init(inputs: [Stage], encodedMask: Bool, node: Plan.Node, space: WorkingSpace, stats: RenderStats) {
        self.encodedMask = encodedMask
        super.init(inputs: inputs, node: node, space: space, stats: stats)
    }

    /// Where the mask's row is clear, the result is the background's row.
    override func passesThrough(_ clear: (Int) -> Bool) -> Int? { clear(2) ? 1 : nil }

    override func mix(_ y: Int, _ rows: UnsafeMutablePointer<UnsafeMutablePointer<SIMD4<Float>>?>,
                      into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let f = rows[0], b = rows[1]!, m = rows[2], foregroundWidth = inputSizes[0].width
        let maskWidth = inputSizes[2].width
        for x in 0..<width {
            let fv = (f != nil && x < foregroundWidth) ? f![x] : SIMD4<Float>()
            var weight: Float = 0
            if let m, x < maskWidth {
                // Premultiplied luminance = luminance of straight colour × alpha.
                weight = luminance(m[x])
                if encodedMask {
                    let a = m[x][3]
                    weight = a > 0 ? Float(SRGB.toEncoded(Double(min(max(weight / a, 0), 1)))) * a : 0
                }
                weight = weight > 0 ? (weight < 1 ? weight : 1) : 0
            }
            out[x] = b[x] + (fv - b[x]) * weight
        }
    }
}
