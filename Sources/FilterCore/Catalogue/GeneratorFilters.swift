/// Filters that make pixels. Sized by width/height, or, when those are 0, by their input (in a chain: the
/// image so far).
enum GeneratorFilters {
    static let sizeParams: [ParamSpec] = [
        .integer("width", 0...1_000_000, default: 0, "Width (0: the input's)"),
        .integer("height", 0...1_000_000, default: 0, "Height (0: the input's)"),
    ]

    static func size(_ b: PlanBuilder, _ p: Params, _ inputs: [PlanBuilder.Ref]) throws -> (Int, Int) {
        var w = p.int("width"), h = p.int("height")
        if w == 0 || h == 0 {
            guard let input = inputs.first else {
                throw PlanError("needs width and height, or an input to take the size from")
            }
            let size = b.size(input)
            if w == 0 { w = size.width }
            if h == 0 { h = size.height }
        }
        guard w.multipliedReportingOverflow(by: h).partialValue <= 1 << 28 else {
            throw PlanError("\(w)×\(h) exceeds the limit of 2^28 pixels")
        }
        return (w, h)
    }

    static func make(_ b: inout PlanBuilder, _ p: Params, _ i: [PlanBuilder.Ref], _ g: Generator) throws
        -> PlanBuilder.Ref {
        let (w, h) = try size(b, p, i)
        return b.add(.generate(g), [], width: w, height: h)
    }

    static let solidColor = FilterSpec(
        .solidColor, .generator, "A single colour.", formula: "out = color", inputs: ["size"],
        params: sizeParams + [.color("color", default: .black, "Fill colour")],
        tolerance: 1  // colours go through float32 working values
    ) { b, p, i in try make(&b, p, i, .solid(p.color("color"))) }

    static let linearGradient = FilterSpec(
        .linearGradient, .generator, "Colour ramp along a line.",
        formula: "t = clamp(((x, y) − P₀)·(P₁ − P₀)/|P₁ − P₀|², 0, 1) at pixel centres, P in fractions of the size; "
            + "out = mix(from, to, t) in the working space",
        inputs: ["size"],
        params: sizeParams + [
            .number("x0", -10...10, default: 0, "Start x (fraction of the width)"),
            .number("y0", -10...10, default: 0, "Start y (fraction of the height)"),
            .number("x1", -10...10, default: 1, "End x"),
            .number("y1", -10...10, default: 0, "End y"),
            .color("from", default: .black, "Colour at the start"),
            .color("to", default: .white, "Colour at the end"),
        ]
    ) { b, p, i in
        try make(&b, p, i, .linear(x0: p.float("x0"), y0: p.float("y0"), x1: p.float("x1"), y1: p.float("y1"),
                                   from: p.color("from"), to: p.color("to")))
    }

    static let radialGradient = FilterSpec(
        .radialGradient, .generator, "Colour ramp around a centre.",
        formula: "t = clamp(distance from (cx·w, cy·h) / (radius·half-diagonal), 0, 1); out = mix(from, to, t)",
        inputs: ["size"],
        params: sizeParams + [
            .number("cx", -10...10, default: 0.5, "Centre x (fraction of the width)"),
            .number("cy", -10...10, default: 0.5, "Centre y (fraction of the height)"),
            .number("radius", 0.001...10, default: 1, "Radius in half-diagonals"),
            .color("from", default: .white, "Colour at the centre"),
            .color("to", default: .black, "Colour at the radius and beyond"),
        ]
    ) { b, p, i in
        try make(&b, p, i, .radial(cx: p.float("cx"), cy: p.float("cy"), radius: p.float("radius"),
                                   from: p.color("from"), to: p.color("to")))
    }

    static let checkerboard = FilterSpec(
        .checkerboard, .generator, "Alternating squares.",
        formula: "out = (⌊x/size⌋ + ⌊y/size⌋) even ? first : second",
        inputs: ["size"],
        params: sizeParams + [
            .integer("size", 1...100_000, default: 8, "Square side in pixels"),
            .color("first", default: .white, "Colour of the top-left square"),
            .color("second", default: RGBA(0.5, 0.5, 0.5), "The other colour"),
        ],
        tolerance: 1  // colours go through float32 working values
    ) { b, p, i in
        try make(&b, p, i, .checkerboard(size: p.int("size"), first: p.color("first"), second: p.color("second")))
    }
}
