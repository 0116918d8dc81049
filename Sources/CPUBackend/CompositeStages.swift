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
final class BlendStage: Stage {
    let mode: BlendMode, opacity: Float, sourceWidth: Int, sourceHeight: Int

    init(mode: BlendMode, opacity: Float, source: Plan.Node, node: Plan.Node, stats: RenderStats) {
        self.mode = mode
        self.opacity = opacity
        sourceWidth = source.width
        sourceHeight = source.height
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        switch mode {
        case .normal: run(Blend.Normal.self, rows, inputs, output)
        case .multiply: run(Blend.Multiply.self, rows, inputs, output)
        case .screen: run(Blend.Screen.self, rows, inputs, output)
        case .overlay: run(Blend.Overlay.self, rows, inputs, output)
        case .softLight: run(Blend.SoftLight.self, rows, inputs, output)
        case .hardLight: run(Blend.HardLight.self, rows, inputs, output)
        case .darken: run(Blend.Darken.self, rows, inputs, output)
        case .lighten: run(Blend.Lighten.self, rows, inputs, output)
        case .difference: run(Blend.Difference.self, rows, inputs, output)
        case .exclusion: run(Blend.Exclusion.self, rows, inputs, output)
        case .add: run(Blend.Add.self, rows, inputs, output)
        case .subtract: run(Blend.Subtract.self, rows, inputs, output)
        case .colorDodge: run(Blend.ColorDodge.self, rows, inputs, output)
        case .colorBurn: run(Blend.ColorBurn.self, rows, inputs, output)
        case .hue: run(Blend.Hue.self, rows, inputs, output)
        case .saturation: run(Blend.Saturation.self, rows, inputs, output)
        case .color: run(Blend.Color.self, rows, inputs, output)
        case .luminosity: run(Blend.Luminosity.self, rows, inputs, output)
        }
    }

    private func run<F: BlendFunction>(_ f: F.Type, _ rows: Range<Int>, _ inputs: [RowView],
                                       _ output: UnsafeMutablePointer<Float>) {
        let source = inputs[0], backdrop = inputs[1], width = width, opacity = opacity
        let sw = sourceWidth, sh = sourceHeight
        parallelRows(rows) { chunk in
            for y in chunk {
                let b = backdrop.pixels(y)
                let s: UnsafeMutablePointer<SIMD4<Float>>? = y < sh ? source.pixels(y) : nil
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<width {
                    let backdropPixel = b[x]
                    guard let s, x < sw else { out[x] = backdropPixel; continue }
                    let sourcePixel = s[x] * opacity
                    out[x] = composite(F.self, sourcePixel, backdropPixel)
                }
            }
        }
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
final class BlendWithMaskStage: Stage {
    let foregroundSize: (Int, Int), maskSize: (Int, Int)
    /// The mask's weight is its sRGB-encoded straight luminance × alpha (linear working space, coverage masks).
    let encodedMask: Bool

    init(foreground: Plan.Node, mask: Plan.Node, encodedMask: Bool, node: Plan.Node, stats: RenderStats) {
        foregroundSize = (foreground.width, foreground.height)
        maskSize = (mask.width, mask.height)
        self.encodedMask = encodedMask
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let width = width, fg = foregroundSize, mk = maskSize, encodedMask = encodedMask
        let foreground = inputs[0], background = inputs[1], mask = inputs[2]
        parallelRows(rows) { chunk in
            for y in chunk {
                let b = background.pixels(y)
                let f: UnsafeMutablePointer<SIMD4<Float>>? = y < fg.1 ? foreground.pixels(y) : nil
                let m: UnsafeMutablePointer<SIMD4<Float>>? = y < mk.1 ? mask.pixels(y) : nil
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<width {
                    let fv = (f != nil && x < fg.0) ? f![x] : SIMD4<Float>()
                    var weight: Float = 0
                    if let m, x < mk.0 {
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
    }
}
