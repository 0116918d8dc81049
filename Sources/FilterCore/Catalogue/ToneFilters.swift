import Foundation

/// Local tone: filters that move a pixel's lightness by its surroundings (`ToneAdjust`) against an edge-aware base,
/// so a dark foreground opens up without flattening its texture and a bright sky comes down without a halo.
enum ToneFilters {
    /// Likeness scale of the base's bilateral smoothing, in lightness (sRGB-encoded luminance, 0…1).
    static let baseSigmaRange = 0.1

    /// The base: the lightness ℓ = sRGB-encode(Y) of straight colour, shrunk by f = max(1, ⌊radius/4⌋) (bilinear,
    /// widened to the shrink), smoothed by the separable bilateral filter with σs = radius/f and σr = 0.1, and enlarged
    /// back (bilinear): edge-aware at the radius's scale for about 70 taps a pixel of the shrunk image.
    static func base(_ b: inout PlanBuilder, _ input: PlanBuilder.Ref, radius: Double) -> PlanBuilder.Ref {
        let (w, h) = b.size(input)
        let luma: [Float] = [0.2126, 0.7152, 0.0722]
        let toLightness: [PointOp] = [.matrix(.rgb([luma, luma, luma])), .transfer(.encode)]
        let grey = b.add(.point(b.workingSpace == .linear ? toLightness : [.transfer(.decode)] + toLightness), on: input)
        let f = max(1, Int(radius / 4))
        var base = GeometryFilters.resampled(&b, grey, width: max(1, (w + f / 2) / f), height: max(1, (h + f / 2) / f),
                                             kernel: .bilinear)
        let sigma = radius / Double(f)
        for window in [Bilateral.Window.horizontal, .vertical] {
            base = b.add(.bilateral(Bilateral(sigmaSpatial: sigma, sigmaRange: baseSigmaRange, window: window)), on: base)
        }
        return GeometryFilters.resampled(&b, base, width: w, height: h, kernel: .bilinear)
    }

    static func adjusted(_ b: inout PlanBuilder, _ input: PlanBuilder.Ref, radius: Double, _ tone: ToneAdjust) -> PlanBuilder.Ref {
        var tone = tone
        tone.encodedWorkingSpace = b.workingSpace == .srgb
        let base = base(&b, input, radius: radius)
        let (w, h) = b.size(input)
        return b.add(.toneAdjust(tone), [input, base], width: w, height: h)
    }

    static let formulaTail = "ℓ = sRGB-encode(Y) of straight colour; base b = ℓ shrunk by f = max(1, ⌊radius/4⌋) "
        + "(bilinear), bilateral-smoothed (separable, σs = radius/f, σr = 0.1) and enlarged back (bilinear), clamped to "
        + "[0, 1]; RGB scaled by Y'/Y with Y' = sRGB-decode(max(ℓ', 0)) (black becomes the grey Y'); alpha kept"

    static let highlightsShadows = FilterSpec(
        .highlightsShadows, .neighbourhood, "Opens shadows and recovers highlights by their surroundings, keeping texture.",
        formula: "ℓ' = b₂ + (ℓ − b), b₁ = b + shadows·(27/16)·b(1 − b)², b₂ = b₁ − highlights·(27/16)·b₁²(1 − b₁); "
            + formulaTail,
        params: [
            .number("shadows", 0...1, default: 0.3, "How far dark areas are lifted (at most a quarter of the range)"),
            .number("highlights", 0...1, default: 0.3, "How far bright areas are brought down"),
            .number("radius", 4...200, default: 30, "Size in pixels of what counts as an area"),
        ],
        tolerance: 2
    ) { b, p, i in
        guard p.number("shadows") > 0 || p.number("highlights") > 0 else { return i[0] }
        return adjusted(&b, i[0], radius: p.number("radius"),
                        ToneAdjust(shadows: p.float("shadows"), highlights: p.float("highlights")))
    }

    static let localContrast = FilterSpec(
        .localContrast, .neighbourhood, "Clarity: strengthens (or softens) detail against an edge-aware base, without halos.",
        formula: "ℓ' = b + (1 + amount)(ℓ − b); " + formulaTail,
        params: [
            .number("amount", -1...2, default: 0.3, "Detail gain: 0 unchanged, negative softens"),
            .number("radius", 4...200, default: 30, "Size in pixels of the detail that is strengthened"),
        ],
        tolerance: 2
    ) { b, p, i in
        guard p.number("amount") != 0 else { return i[0] }
        return adjusted(&b, i[0], radius: p.number("radius"), ToneAdjust(detail: p.float("amount")))
    }
}
