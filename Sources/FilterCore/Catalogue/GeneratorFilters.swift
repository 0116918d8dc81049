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

    static let weights: [(String, Int)] = [("thin", 100), ("extralight", 200), ("light", 300), ("normal", 400),
                                           ("medium", 500), ("semibold", 600), ("bold", 700), ("extrabold", 800),
                                           ("black", 900)]

    static let text = FilterSpec(
        .text, .generator, "Text set with real shaping (Pango, HarfBuzz), for captions and watermarks.",
        formula: "the string laid out by Pango (HarfBuzz shaping, Unicode bidi, fontconfig fallback for scripts the "
            + "font lacks), unhinted outlines and metrics at fractional positions, rasterised by FreeType through "
            + "PangoFT2 (cairo for a font fontconfig emboldens and colour fonts) with grey antialiasing into coverage "
            + "c; out = color × c (premultiplied), transparent elsewhere; the "
            + "layout box (from its origin to the widest line or wrapWidth, and to the last line; ink past it kept) "
            + "placed at position, margin × the shorter side from the edges; em size = relativeSize × height, or "
            + "size × dpi / 72 pixels",
        inputs: ["size"],
        params: sizeParams + [
            .text("text", default: "", maxBytes: 4096, "The string (UTF-8; \\n breaks lines)"),
            .text("font", default: "DejaVu Sans", maxBytes: 256,
                  "Font family (fontconfig's name, or sans-serif, serif, monospace)"),
            .number("size", 1...2000, default: 24, "Em size in points"),
            .number("dpi", 18...2400, default: 72, "Points to pixels: size × dpi / 72 (72: a point is a pixel)"),
            .number("relativeSize", 0...1, default: 0,
                    "Em size as a fraction of the canvas height, so a watermark scales with the image (0: size and dpi)"),
            .choice("weight", weights.map(\.0), default: "normal", "Font weight"),
            .boolean("italic", default: false, "The family's italic face"),
            .color("color", default: .white, "Text colour"),
            .choice("align", ["left", "centre", "right"], default: "left", "Alignment of the lines within the block"),
            .integer("wrapWidth", 0...100_000, default: 0, "Break lines longer than this many pixels (0: never)"),
            .number("lineSpacing", 0...10, default: 0, "Line height as a factor of the font's (0: the font's own)"),
            .choice("position", ResizePosition.allCases.filter { $0.strategy == nil }.map(\.rawValue), default: "centre",
                    "Where the block sits on the canvas"),
            .number("margin", 0...0.5, default: 0, "Space between the block and the edges, as a fraction of the shorter side"),
        ],
        tolerance: 1,
        check: { p in p.string("text").isEmpty ? ["give the text to set (\"text\": \"© 2026\")"] : [] }
    ) { b, p, i in
        let (w, h) = try size(b, p, i)
        let em = p.number("relativeSize") > 0 ? p.number("relativeSize") * Double(h) : p.number("size") * p.number("dpi") / 72
        let style = TextStyle(
            text: p.string("text"), family: p.string("font"), size: em,
            weight: weights.first { $0.0 == p.string("weight") }?.1 ?? 400, italic: p.bool("italic"),
            alignment: p.string("align") == "centre" ? .centre : p.string("align") == "right" ? .right : .left,
            wrapWidth: p.int("wrapWidth"), lineSpacing: p.number("lineSpacing"))
        let set = try TextSetter.set(style)
        let position = ResizePosition(rawValue: p.string("position")) ?? .centre
        let margin = Int((p.number("margin") * Double(min(w, h))).rounded())
        func place(_ excess: Int, horizontal: Bool) -> Int {
            let offset = position.offset(excess: excess, horizontal: horizontal)
            // The margin pushes away from the edge the block sits against; a centred block stays centred.
            return offset == 0 && excess != 0 ? margin : offset == excess && excess != 0 ? excess - margin : offset
        }
        let block = TextBlock(width: set.width, height: set.height, coverage: set.coverage,
                              x: place(w - set.box.width, horizontal: true) + set.offset.x,
                              y: place(h - set.box.height, horizontal: false) + set.offset.y, color: p.color("color"))
        return b.add(.generate(.text(block)), [], width: w, height: h)
    }
}
