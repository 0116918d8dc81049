import Foundation

/// Filters that read a window around each pixel. Edges clamp (OpenCV's BORDER_REPLICATE). Blurs act on premultiplied
/// colour (so transparent pixels do not darken edges); sharpening acts on straight colour.
enum NeighbourhoodFilters {
    /// Normalised Gaussian taps out to ⌈3σ⌉ (at least one tap each side).
    static func gaussianTaps(sigma: Double) -> [Float] {
        let radius = max(1, Int(ceil(3 * sigma)))
        let raw = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = raw.reduce(0, +)
        return raw.map { Float($0 / sum) }
    }

    static func blur(_ b: inout PlanBuilder, sigma: Double, _ input: PlanBuilder.Ref) -> PlanBuilder.Ref {
        guard sigma > 0 else { return input }
        let taps = gaussianTaps(sigma: sigma)
        return b.add(.separableConvolution(horizontal: taps, vertical: taps), on: input)
    }

    static let gaussianBlur = FilterSpec(
        .gaussianBlur, .neighbourhood, "Gaussian blur.",
        formula: "separable convolution with exp(−x²/2σ²), normalised, taps out to ⌈3σ⌉; σ = 0 is the identity",
        params: [.number("sigma", 0...500, default: 2, "Standard deviation in pixels")]
    ) { b, p, i in blur(&b, sigma: p.number("sigma"), i[0]) }

    static let boxBlur = FilterSpec(
        .boxBlur, .neighbourhood, "Mean over a square window.",
        formula: "mean over the (2·radius + 1)² window",
        params: [.integer("radius", 0...500, default: 1, "Half-width of the window in pixels")]
    ) { b, p, i in
        p.int("radius") == 0 ? i[0] : b.add(.boxBlur(radius: p.int("radius")), on: i[0])
    }

    static let unsharpMask = FilterSpec(
        .unsharpMask, .neighbourhood, "Sharpens by adding back the difference from a blurred copy.",
        formula: "on straight colour C: d = C − C̃, C̃ the colour of the premultiplied gaussian_σ blur (alpha-weighted); "
            + "C ↦ C + amount·d where |d| ≥ threshold; alpha unchanged",
        params: [
            .number("sigma", 0...100, default: 2, "Blur standard deviation in pixels"),
            .number("amount", 0...10, default: 1, "Strength"),
            .number("threshold", 0...1, default: 0, "Smallest difference that is sharpened"),
        ]
    ) { b, p, i in
        let blurred = blur(&b, sigma: p.number("sigma"), i[0])
        guard blurred != i[0], p.number("amount") > 0 else { return i[0] }
        let (w, h) = b.size(i[0])
        return b.add(.unsharpCombine(amount: p.float("amount"), threshold: p.float("threshold")), [i[0], blurred],
                     width: w, height: h)
    }

    static let sharpen = FilterSpec(
        .sharpen, .neighbourhood, "Sharpens luminance only, leaving colour edges alone.",
        formula: "RGB ↦ RGB + amount·(Y − blur₃ₓ₃(Y)), blur₃ₓ₃ = [1 2 1]ᵀ[1 2 1]/16",
        params: [.number("amount", 0...10, default: 0.5, "Strength")]
    ) { b, p, i in
        p.number("amount") == 0 ? i[0] : b.add(.sharpenLuminance(amount: p.float("amount")), on: i[0])
    }

    static let convolve = FilterSpec(
        .convolve, .neighbourhood, "Convolution with any odd square kernel up to 9×9.",
        formula: "v ↦ Σ k[j][i]·v(x + i − r, y + j − r) (÷ Σk when normalize and Σk ≠ 0), a correlation as OpenCV's "
            + "filter2D (W3C feConvolveMatrix flips the kernel); W3C preserveAlpha: true convolves straight RGB and "
            + "keeps alpha, false convolves premultiplied RGBA; bias is added to straight colour",
        params: [
            ParamSpec("kernel", .numbers(counts: [1, 9, 25, 49, 81], range: -1000...1000),
                      default: .numbers([0, 0, 0, 0, 1, 0, 0, 0, 0]), "Weights row by row (1, 9, 25, 49 or 81)"),
            .boolean("normalize", default: true, "Divide by the sum of the weights when it is not 0"),
            .number("bias", -1...1, default: 0, "Added to every colour channel"),
            // W3C's default is false; ours is true because a kernel whose weights do not sum to 1 (every edge or
            // relief kernel) would otherwise scale alpha too, turning an opaque photo transparent.
            .boolean("preserveAlpha", default: true,
                     "Convolve straight colour and keep alpha (W3C true); false convolves all four premultiplied channels"),
        ]
    ) { b, p, i in
        var kernel = p.numbers("kernel").map(Float.init)
        let sum = kernel.reduce(0, +)
        if p.bool("normalize"), sum != 0 { kernel = kernel.map { $0 / sum } }
        let size = Int(Double(kernel.count).squareRoot())
        return b.add(.convolve(kernel: kernel, size: size, bias: p.float("bias"), preserveAlpha: p.bool("preserveAlpha")),
                     on: i[0])
    }

    static let sobel = FilterSpec(
        .sobel, .neighbourhood, "Edge strength: gradient magnitude of luminance.",
        formula: "RGB ↦ √(Gx² + Gy²)/4 with 3×3 Sobel kernels on Y, so a full 0→1 step gives 1; alpha 1"
    ) { b, _, i in b.add(.sobel, on: i[0]) }

    static let median = FilterSpec(
        .median, .neighbourhood, "Median per channel: removes speckle while keeping edges.",
        formula: "each channel ↦ median of the (2·radius + 1)² window",
        params: [.integer("radius", 1...3, default: 1, "Half-width of the window")]
    ) { b, p, i in b.add(.median(radius: p.int("radius")), on: i[0]) }

    static let dilate = morphology(.dilate, "Grows light areas and shrinks dark ones: each channel's maximum over a square or disc.")
    static let erode = morphology(.erode, "Grows dark areas and shrinks light ones: each channel's minimum over a square or disc.")

    private static func morphology(_ operation: Morphology.Operation, _ summary: String) -> FilterSpec {
        let extreme = operation == .dilate ? "max" : "min"
        return FilterSpec(
            operation == .dilate ? .dilate : .erode, .neighbourhood, summary,
            formula: "each premultiplied channel ↦ \(extreme) over the element: the (2·radius + 1)² square, or the disc "
                + "of pixels within radius of the centre (dx² + dy² ≤ radius²); pixels outside the image are left out",
            params: [
                .integer("radius", 1...50, default: 1, "Half-width of the element in pixels"),
                .choice("shape", Morphology.Shape.allCases.map(\.rawValue), default: "square", "Structuring element"),
            ]
        ) { b, p, i in
            let shape = Morphology.Shape(rawValue: p.string("shape")) ?? .square
            return b.add(.morphology(Morphology(operation, radius: p.int("radius"), shape: shape)), on: i[0])
        }
    }

    static let motionBlur = FilterSpec(
        .motionBlur, .neighbourhood, "Streaks along a direction, as a camera moving during the exposure.",
        formula: "the mean of 2⌈radius⌉ + 1 bilinear samples (premultiplied, taps clamped to the edge) evenly spaced from "
            + "p − radius·(cos θ, −sin θ) to p + radius·(cos θ, −sin θ), θ = angle counter-clockwise from the +x axis",
        params: [
            .number("radius", 0...200, default: 10, "Half the streak's length in pixels"),
            .number("angle", -360...360, default: 0, "Direction in degrees, counter-clockwise from horizontal"),
        ]
    ) { b, p, i in
        guard p.number("radius") > 0 else { return i[0] }
        return b.add(.lineBlur(.motion(radius: p.number("radius"), degrees: p.number("angle"))), on: i[0])
    }

    static let zoomBlur = FilterSpec(
        .zoomBlur, .neighbourhood, "Streaks away from a centre, as a camera zooming during the exposure.",
        formula: "the mean of n = 1 + ⌈s·|p − c|⌉ bilinear samples (premultiplied, taps clamped to the edge) evenly "
            + "spaced from p to p − s·(p − c), c = (centerX·width − ½, centerY·height − ½) in pixel indices, "
            + "s = min(1, amount ÷ half the diagonal): a streak amount pixels long at a centred zoom's corners",
        params: [
            .number("amount", 0...500, default: 20, "Streak length in pixels at the corners (half the diagonal from the centre)"),
            .number("centerX", 0...1, default: 0.5, "Centre as a fraction of the width"),
            .number("centerY", 0...1, default: 0.5, "Centre as a fraction of the height"),
        ],
        tolerance: 2
    ) { b, p, i in
        guard p.number("amount") > 0 else { return i[0] }
        let (w, h) = b.size(i[0])
        let diagonal = (Double(w * w) + Double(h * h)).squareRoot()
        return b.add(.lineBlur(.zoom(cx: p.number("centerX") * Double(w) - 0.5, cy: p.number("centerY") * Double(h) - 0.5,
                                     amount: p.number("amount"), reference: diagonal / 2)), on: i[0])
    }

    static let bilateral = FilterSpec(
        .bilateral, .neighbourhood, "Smooths while keeping edges: neighbours weighted by distance and by likeness.",
        formula: "v ↦ Σ w·v(q) / Σ w over |p − q| ≤ ⌈2σs⌉, w = exp(−|p − q|²/2σs²)·exp(−‖v(q) − v(p)‖²/2σr²) on "
            + "premultiplied RGBA working values (Tomasi & Manduchi 1998); neighbours outside the image are left out; "
            + "separable: the same weights along x, then along y on that result (Pham & van Vliet 2005), much faster "
            + "and close to exact (at σr 0.1 on photos: mean difference ≤ 2 codes, 99th percentile ≤ 8; BilateralTests)",
        params: [
            .number("sigmaSpatial", 0.5...20, default: 2, "Spatial standard deviation in pixels (the window reaches 2σ)"),
            .number("sigmaRange", 0.01...1, default: 0.1, "How different a neighbour may be and still count (working values 0…1)"),
            .choice("method", ["exact", "separable"], default: "exact", "exact: the definition; separable: two 1D passes"),
        ]
    ) { b, p, i in
        let (s, r) = (p.number("sigmaSpatial"), p.number("sigmaRange"))
        guard p.string("method") == "separable" else {
            return b.add(.bilateral(Bilateral(sigmaSpatial: s, sigmaRange: r, window: .disc)), on: i[0])
        }
        let rows = b.add(.bilateral(Bilateral(sigmaSpatial: s, sigmaRange: r, window: .horizontal)), on: i[0])
        return b.add(.bilateral(Bilateral(sigmaSpatial: s, sigmaRange: r, window: .vertical)), on: rows)
    }

    static let noiseReduction = FilterSpec(
        .noiseReduction, .neighbourhood, "Removes colour blotches and luminance grain, then restores crispness.",
        formula: "in order, each step skipped at 0: colour — the W3C luminosity blend of the image onto its gaussian "
            + "blur of σ = 4·color (chroma from the blur, luminance Lum = 0.3R + 0.59G + 0.11B from the image); "
            + "luminance — the exact bilateral filter with σs = 1 + luminance, σr = 0.02 + 0.08·luminance; sharpness — "
            + "RGB + sharpness·(Y − blur₃ₓ₃(Y)) as sharpen (after Core Image's CINoiseReduction: smoothing, then "
            + "sharpening); meant for opaque photos (alpha composes as the blend's)",
        params: [
            .number("luminance", 0...1, default: 0.4, "Grain smoothing: edges are kept"),
            .number("color", 0...1, default: 0.5, "Colour blotch smoothing: luminance detail is kept"),
            .number("sharpness", 0...2, default: 0.3, "Luminance sharpening after the smoothing"),
        ],
        tolerance: 2
    ) { b, p, i in
        var ref = i[0]
        let colour = p.number("color"), luminance = p.number("luminance"), sharpness = p.float("sharpness")
        if colour > 0 {
            let blurred = blur(&b, sigma: 4 * colour, ref)
            let (w, h) = b.size(ref)
            ref = b.add(.blend(mode: .luminosity, opacity: 1), [ref, blurred], width: w, height: h)
        }
        if luminance > 0 {
            ref = b.add(.bilateral(Bilateral(sigmaSpatial: 1 + luminance, sigmaRange: 0.02 + 0.08 * luminance, window: .disc)),
                        on: ref)
        }
        if sharpness > 0 { ref = b.add(.sharpenLuminance(amount: sharpness), on: ref) }
        return ref
    }
}
