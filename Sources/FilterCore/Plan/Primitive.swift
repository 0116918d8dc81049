/// The operations backends implement. Catalogue filters lower to these; each backend handles every case.
package enum Primitive: Equatable, Sendable {
    /// A recipe input image.
    case source(name: String)
    /// Per-pixel operations on straight colour, applied in order in one pass.
    case point([PointOp])
    /// Horizontal then vertical convolution with odd, centred, normalised taps; edges clamp.
    case separableConvolution(horizontal: [Float], vertical: [Float])
    /// Mean over a (2r+1)² window; edges clamp.
    case boxBlur(radius: Int)
    /// Square odd kernel (row-major, applied as a correlation); edges clamp. W3C feConvolveMatrix's alpha rules:
    /// `preserveAlpha` convolves straight colour and keeps alpha, otherwise all four premultiplied channels are
    /// convolved. `bias` is added to straight colour (to premultiplied colour as bias·α).
    case convolve(kernel: [Float], size: Int, bias: Float, preserveAlpha: Bool)
    /// Inputs (original, alpha-weighted blur): on straight colour, d = C − C_blurred; C += amount·d where
    /// |d| ≥ threshold; alpha kept.
    case unsharpCombine(amount: Float, threshold: Float)
    /// RGB += amount·(Y − Y₃ₓ₃), Y the luminance, Y₃ₓ₃ its [1 2 1]⊗[1 2 1]/16 blur; edges clamp.
    case sharpenLuminance(amount: Float)
    /// RGB = √(Gx² + Gy²)/4 of the luminance (3×3 Sobel), alpha 1; edges clamp.
    case sobel
    /// Per-channel median over a (2r+1)² window; edges clamp.
    case median(radius: Int)
    /// Per-channel maximum (dilate) or minimum (erode) of the premultiplied values over a flat element.
    case morphology(Morphology)
    /// The mean of bilinear samples along a segment through each pixel (motion and zoom blurs).
    case lineBlur(LineBlur)
    /// Neighbours weighted by distance and likeness (the bilateral filter, exact or one pass of its separable form).
    case bilateral(Bilateral)
    /// Inputs (image, base lightness): local tone (`ToneAdjust`): shadows, highlights and detail against the base.
    case toneAdjust(ToneAdjust)
    /// Resampling along one axis to the node's size. With `reduced`, the input is a box reduction of an image
    /// `reduced.originalSize` long on this axis, and samples sit where they would in that image.
    case resample(axis: Axis, kernel: ResampleKernel, reduced: BoxReduction? = nil)
    /// Mean of each x×y block (the last blocks may be partial): the decode-time shrink before an exact resample.
    case boxReduce(x: Int, y: Int)
    /// The node-sized rectangle at (x, y) of the input.
    case crop(x: Int, y: Int)
    case flip(horizontal: Bool)
    /// Clockwise quarter turns (1, 2 or 3).
    case rotate(quarterTurns: Int)
    /// Rows become columns: out(x, y) = in(y, x).
    case transpose
    /// Each output pixel samples the input at `map`(its centre), affine or projective, with `kernel` (2D, widened
    /// where the map shrinks); samples outside the input, or behind the view, read `background`.
    case warp(WarpMap, kernel: ResampleKernel, background: RGBA)
    /// The input placed at (left, top) on a node-sized canvas of `color`.
    case pad(top: Int, left: Int, color: RGBA)
    /// Inputs (source, backdrop): separable blend mode with source alpha scaled by `opacity`.
    case blend(mode: BlendMode, opacity: Float)
    /// Inputs (foreground, background, mask): mix(background, foreground, m), m = mask luminance × mask alpha.
    /// With `coverage`, m is the mask's sRGB-encoded luminance × alpha (a mask's stored grey level, as editors read
    /// masks) rather than its linear luminance; the same in sRGB working space.
    case blendWithMask(coverage: Bool)
    case generate(Generator)

    package enum Axis: String, Sendable { case horizontal, vertical }

    /// A box blur's running sums restart every this many rows and columns, counted from the image's top and left
    /// edge (about the window's length): a sum then never runs long enough to drift, and starts at the same rows
    /// however an image is cut into bands, so banded and whole renders agree to the bit.
    package static func boxSegment(radius r: Int) -> Int { min(256, max(32, 2 * r + 1)) }

    /// What the planner, the region rule, the work estimate and `--explain` know of this primitive: its
    /// descriptor (Sources/FilterCore/Primitives). The planner's one switch over every primitive (the optimizer's
    /// rewrites match the few they rewrite; each backend's factory is its own exhaustive switch).
    package var descriptor: any PrimitiveDescriptor {
        switch self {
        case .source(let name): return Primitives.Source(name: name)
        case .point(let ops): return Primitives.PointSteps(ops: ops)
        case let .separableConvolution(h, v): return Primitives.SeparableConvolution(horizontal: h, vertical: v)
        case .boxBlur(let r): return Primitives.BoxBlur(radius: r)
        case let .convolve(kernel, size, bias, preserveAlpha):
            return Primitives.Convolve(kernel: kernel, size: size, bias: bias, preserveAlpha: preserveAlpha)
        case let .unsharpCombine(amount, threshold): return Primitives.UnsharpCombine(amount: amount, threshold: threshold)
        case .sharpenLuminance(let amount): return Primitives.SharpenLuminance(amount: amount)
        case .sobel: return Primitives.Sobel()
        case .median(let r): return Primitives.Median(radius: r)
        case .morphology(let m): return Primitives.MorphologyFilter(morphology: m)
        case .lineBlur(let blur): return Primitives.LineBlurFilter(blur: blur)
        case .bilateral(let b): return Primitives.BilateralFilter(bilateral: b)
        case .toneAdjust(let tone): return Primitives.ToneAdjustFilter(tone: tone)
        case let .resample(axis, kernel, reduced): return Primitives.Resample(axis: axis, kernel: kernel, reduced: reduced)
        case let .boxReduce(x, y): return Primitives.BoxReduce(x: x, y: y)
        case let .crop(x, y): return Primitives.Crop(x: x, y: y)
        case .flip(let horizontal): return Primitives.Flip(horizontal: horizontal)
        case .rotate(let turns): return Primitives.Rotate(quarterTurns: turns)
        case .transpose: return Primitives.Transpose()
        case let .warp(map, kernel, background): return Primitives.Warp(map: map, kernel: kernel, background: background)
        case let .pad(top, left, color): return Primitives.Pad(top: top, left: left, color: color)
        case let .blend(mode, opacity): return Primitives.Blend(mode: mode, opacity: opacity)
        case .blendWithMask(let coverage): return Primitives.BlendWithMask(coverage: coverage)
        case .generate(let generator): return Primitives.Generate(generator: generator)
        }
    }

    /// The recipe input a source reads; nil for every other primitive.
    package var sourceName: String? {
        if case .source(let name) = self { return name }
        return nil
    }

    /// Whether the CPU may hand this primitive its input as stored samples of `format`, each tap read through a
    /// table into working values of `space`, instead of converting the input to working floats first.
    package func readsSamples(_ format: PixelFormat, space: WorkingSpace) -> Bool {
        switch descriptor.onSamples {
        case .readsThroughTable(let reads): return reads(format)
        case .readsIntoWorking(let reads): return reads(format, space)
        case .fixedPoint(_, let reads), .finishesFixedPoint(_, let reads): return reads(format, space)
        // Per-pixel steps convert each row in cache (their leading per-channel steps folded into the conversion
        // where the samples allow), rather than reading a strip of floats converted for them.
        case .perPixel: return !format.isFloat
        default: return false
        }
    }
}

/// The descriptors of the primitives, one type each (Sources/FilterCore/Primitives).
package enum Primitives {}

/// Blend modes of the W3C Compositing spec, plus add and subtract (clamped to [0, 1] before compositing).
public enum BlendMode: String, CaseIterable, Sendable {
    case normal, multiply, screen, overlay, softLight, hardLight, darken, lighten, difference, exclusion, add, subtract
    case colorDodge, colorBurn, hue, saturation, color, luminosity
}

/// A box reduction that a resample's input went through, along the resample's axis.
package struct BoxReduction: Hashable, Sendable {
    package var factor: Int
    package var originalSize: Int
    /// Original pixels each reduced pixel covers: `factor` for a JPEG's DCT (boxes of exactly f, the last one
    /// partial); `originalSize / reducedSize` for a decoder that rescales the whole image to the reduced size
    /// (libwebp), whose boxes are slightly narrower than f when f does not divide the size.
    package var boxWidth: Double
    package init(factor: Int, originalSize: Int, reducedSize: Int? = nil) {
        self.factor = factor
        self.originalSize = originalSize
        boxWidth = reducedSize.map { Double(originalSize) / Double(max(1, $0)) } ?? Double(factor)
    }
}

package enum Generator: Equatable, Sendable {
    case solid(RGBA)
    /// Colour interpolated along (x0, y0) → (x1, y1), coordinates as fractions of the size.
    case linear(x0: Float, y0: Float, x1: Float, y1: Float, from: RGBA, to: RGBA)
    /// Colour interpolated with distance from (cx, cy) over radius × the half-diagonal.
    case radial(cx: Float, cy: Float, radius: Float, from: RGBA, to: RGBA)
    case checkerboard(size: Int, first: RGBA, second: RGBA)
    /// Set text: its colour times its coverage, transparent elsewhere.
    case text(TextBlock)
}
