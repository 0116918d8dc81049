import Foundation

/// Per-pixel colour filters. All act on straight (unpremultiplied) colour in the working space.
enum ColourFilters {
    static let exposure = FilterSpec(
        .exposure, .colour, "Scales light by a power of two, as a camera's exposure does.",
        formula: "RGB ↦ RGB·2^ev",
        params: [.number("ev", -10...10, default: 0, "Exposure change in stops")]
    ) { b, p, i in
        let g = Float(pow(2, p.number("ev")))
        return b.point(.matrix(.rgb([[g, 0, 0], [0, g, 0], [0, 0, g]])), on: i[0])
    }

    static let colorControls = FilterSpec(
        .colorControls, .colour, "Brightness, contrast and saturation.",
        formula: "RGB ↦ contrast·(mix(Y, RGB, saturation) − ½) + ½ + brightness; Y = Rec. 709 luminance",
        params: [
            .number("brightness", -1...1, default: 0, "Added to every channel"),
            .number("contrast", 0...4, default: 1, "Scale about mid-grey (½)"),
            .number("saturation", 0...4, default: 1, "0 grey, 1 unchanged, above 1 more colourful"),
        ]
    ) { b, p, i in
        let s = p.float("saturation"), c = p.float("contrast")
        let l = ColorMatrix.luma
        let rows: [[Float]] = (0..<3).map { r in
            (0..<3).map { k in c * ((1 - s) * l[k] + (r == k ? s : 0)) }
        }
        return b.point(.matrix(.rgb(rows, offset: 0.5 * (1 - c) + p.float("brightness"))), on: i[0])
    }

    static let gamma = FilterSpec(
        .gamma, .colour, "Raises each colour channel to a power.",
        formula: "RGB ↦ sign(v)·|v|^power",
        params: [.number("power", 0.01...10, default: 1, "Exponent; below 1 brightens, above 1 darkens")]
    ) { b, p, i in b.point(.gamma(p.float("power")), on: i[0]) }

    static let hueRotate = FilterSpec(
        .hueRotate, .colour, "Rotates hues around the grey axis, keeping luminance.",
        formula: "RGB ↦ M(θ)·RGB with the luminance-preserving hue matrix of the Filter Effects spec",
        params: [.number("degrees", -360...360, default: 0, "Rotation angle")]
    ) { b, p, i in
        let t = p.number("degrees") * .pi / 180
        let c = Float(cos(t)), s = Float(sin(t))
        let rows: [[Float]] = [
            [0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928],
            [0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283],
            [0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072],
        ]
        return b.point(.matrix(.rgb(rows)), on: i[0])
    }

    static let vibrance = FilterSpec(
        .vibrance, .colour, "Raises saturation most where colours are muted.",
        formula: "k = 1 + amount·(1 − clamp(max − min)); RGB ↦ Y + (RGB − Y)·k",
        params: [.number("amount", -1...1, default: 0, "Strength; negative mutes")]
    ) { b, p, i in b.point(.vibrance(p.float("amount")), on: i[0]) }

    static let temperatureTint = FilterSpec(
        .temperatureTint, .colour, "Warms or cools (red against blue) and tints (green against magenta).",
        formula: "R ↦ R·(1 + 0.3t), B ↦ B·(1 − 0.3t), G ↦ G·(1 − 0.3u); t = temperature/100, u = tint/100",
        params: [
            .number("temperature", -100...100, default: 0, "Positive warms, negative cools"),
            .number("tint", -100...100, default: 0, "Positive towards magenta, negative towards green"),
        ]
    ) { b, p, i in
        let t = p.float("temperature") / 100, u = p.float("tint") / 100
        return b.point(.matrix(.rgb([[1 + 0.3 * t, 0, 0], [0, 1 - 0.3 * u, 0], [0, 0, 1 - 0.3 * t]])), on: i[0])
    }

    static let colorMatrix = FilterSpec(
        .colorMatrix, .colour, "Any affine colour transform: 4 rows (R, G, B, A) of 4 coefficients and an offset.",
        formula: "out_r = Σ_c m[r][c]·in_c + m[r][4] on straight RGBA",
        params: [ParamSpec("matrix", .numbers(counts: [20], range: -100...100),
                           default: .numbers([1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]),
                           "20 numbers, row by row")]
    ) { b, p, i in b.point(.matrix(ColorMatrix(recipe: p.numbers("matrix"))), on: i[0]) }

    static let levels = FilterSpec(
        .levels, .colour, "Input and output black and white points with a midtone gamma.",
        formula: "RGB ↦ outBlack + (outWhite − outBlack)·clamp((v − inBlack)/(inWhite − inBlack), 0, 1)^(1/gamma)",
        params: [
            .number("inBlack", 0...1, default: 0, "Input value mapped to outBlack"),
            .number("inWhite", 0...1, default: 1, "Input value mapped to outWhite"),
            .number("gamma", 0.01...10, default: 1, "Midtone gamma; above 1 brightens"),
            .number("outBlack", 0...1, default: 0, "Darkest output"),
            .number("outWhite", 0...1, default: 1, "Brightest output"),
        ],
        check: { p in p.number("inWhite") > p.number("inBlack") ? [] : ["inWhite must be greater than inBlack"] }
    ) { b, p, i in
        b.point(.levels(inBlack: p.float("inBlack"), inWhite: p.float("inWhite"), gamma: p.float("gamma"),
                        outBlack: p.float("outBlack"), outWhite: p.float("outWhite")), on: i[0])
    }

    static let curves = FilterSpec(
        .curves, .colour, "Tone curves through control points (monotone cubic), master and per channel.",
        formula: "RGB ↦ master(channel_c(v)); curves are Fritsch–Carlson monotone cubics, flat outside their points",
        params: [
            ParamSpec("points", .points(minCount: 2), default: .points([[0, 0], [1, 1]]), "Master curve"),
            ParamSpec("red", .points(minCount: 0), default: .points([]), "Red curve (empty: identity)"),
            ParamSpec("green", .points(minCount: 0), default: .points([]), "Green curve (empty: identity)"),
            ParamSpec("blue", .points(minCount: 0), default: .points([]), "Blue curve (empty: identity)"),
        ],
        check: { p in
            ["red", "green", "blue"].compactMap { p.points($0).count == 1 ? "\($0) needs 0 or at least 2 points" : nil }
        }
    ) { b, p, i in
        func curve(_ name: String) -> ToneCurve? {
            let points = p.points(name)
            let curve = points.count >= 2 ? ToneCurve(points: points) : nil
            return curve?.isIdentity == true ? nil : curve
        }
        return b.point(.curves(master: curve("points"), red: curve("red"), green: curve("green"),
                               blue: curve("blue")), on: i[0])
    }

    static let invert = FilterSpec(
        .invert, .colour, "Negative image.", formula: "RGB ↦ 1 − RGB"
    ) { b, _, i in
        b.point(.matrix(.rgb([[-1, 0, 0], [0, -1, 0], [0, 0, -1]], offset: 1)), on: i[0])
    }

    static let grayscale = FilterSpec(
        .grayscale, .colour, "Luminance only.", formula: "RGB ↦ Y = 0.2126R + 0.7152G + 0.0722B"
    ) { b, _, i in
        let l = ColorMatrix.luma
        let row: [Float] = [l[0], l[1], l[2]]
        return b.point(.matrix(.rgb([row, row, row])), on: i[0])
    }

    static let sepiaMatrix: [[Float]] = [[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]]

    static let sepia = FilterSpec(
        .sepia, .colour, "Warm brown monochrome.",
        formula: "RGB ↦ mix(RGB, S·RGB, intensity), S the classic sepia matrix",
        params: [.number("intensity", 0...1, default: 1, "0 unchanged, 1 full sepia")]
    ) { b, p, i in
        let t = p.float("intensity")
        let rows: [[Float]] = (0..<3).map { r in (0..<3).map { c in t * sepiaMatrix[r][c] + (r == c ? 1 - t : 0) } }
        return b.point(.matrix(.rgb(rows)), on: i[0])
    }

    static let threshold = FilterSpec(
        .threshold, .colour, "Black and white by luminance.", formula: "RGB ↦ Y ≥ level ? 1 : 0",
        params: [.number("level", 0...1, default: 0.5, "Luminance at which white starts")]
    ) { b, p, i in b.point(.threshold(p.float("level")), on: i[0]) }

    static let posterize = FilterSpec(
        .posterize, .colour, "Reduces each channel to a few levels.",
        formula: "v ↦ round(clamp(v, 0, 1)·(levels − 1))/(levels − 1)",
        params: [.integer("levels", 2...256, default: 4, "Levels per channel")]
    ) { b, p, i in b.point(.posterize(p.float("levels")), on: i[0]) }

    static let clamp = FilterSpec(
        .clamp, .colour, "Clamps colour to a range (as CSS and SVG filter chains do after every step).",
        formula: "RGB ↦ min(max(v, min), max) on straight colour, A ↦ min(max(A, 0), 1); intermediates are otherwise "
            + "never clamped between steps, so put clamp between two steps to reproduce a CSS filter chain",
        params: [
            .number("min", 0...1, default: 0, "Lowest value kept"),
            .number("max", 0...1, default: 1, "Highest value kept"),
        ],
        check: { p in p.number("min") > p.number("max") ? ["min (\(p.number("min"))) is above max (\(p.number("max")))"] : [] }
    ) { b, p, i in b.point(.clamp(min: p.float("min"), max: p.float("max")), on: i[0]) }

    static let opacity = FilterSpec(
        .opacity, .colour, "Makes the image more transparent.", formula: "A ↦ A·amount",
        params: [.number("amount", 0...1, default: 1, "Alpha multiplier")]
    ) { b, p, i in
        let a = p.float("amount")
        return b.point(.matrix(ColorMatrix(rows: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, a]])), on: i[0])
    }

    static let vignette = FilterSpec(
        .vignette, .colour, "Darkens towards the corners.",
        formula: "RGB ↦ RGB·(1 − intensity·min(d/radius, 1)²), d = distance of the pixel centre from the image centre / half-diagonal",
        params: [
            .number("radius", 0.01...2, default: 1, "Distance (in half-diagonals) of full darkening"),
            .number("intensity", 0...1, default: 0.5, "Darkening at and beyond the radius"),
        ]
    ) { b, p, i in b.point(.vignette(radius: p.float("radius"), intensity: p.float("intensity")), on: i[0]) }

    static let lut = FilterSpec(
        .lut, .colour, "Applies a look from an Adobe/Resolve .cube colour lookup table (1D or 3D) or a Hald CLUT image.",
        formula: "RGB ↦ mix(v, LUT(v), strength), v the colour in the LUT's space (sRGB-encoded by default) clamped to "
            + "its DOMAIN_MIN…DOMAIN_MAX; 3D tables interpolate tetrahedrally (six tetrahedra along the grey "
            + "diagonal) or trilinearly, 1D tables linearly per channel (Adobe Cube LUT Specification 1.0); a Hald "
            + "CLUT PNG of level L holds a 3D table of size L², its pixels in row order, red fastest",
        params: [
            .file("path", extensions: ["cube", "png"],
                  "The .cube file (LUT_3D_SIZE up to 65, LUT_1D_SIZE up to 65536) or Hald CLUT PNG (level 2…8)"),
            .choice("interpolation", ["tetrahedral", "trilinear"], default: "tetrahedral",
                    "How a 3D table is read between its grid points"),
            .number("strength", 0...1, default: 1, "0 unchanged, 1 the full look"),
            .choice("space", ["srgb", "linear"], default: "srgb",
                    "The values the table expects: sRGB-encoded (grading tools' looks) or linear"),
        ],
        tolerance: 1,
        check: { p in p.string("path").isEmpty ? ["give the path of a .cube file or Hald CLUT PNG (\"path\": \"looks/film.cube\")"] : [] }
    ) { b, p, i in
        let table = try ColourLUT.load(path: try b.resolved(p.string("path")))
        let conversion: TransferConversion
        switch (p.string("space"), b.workingSpace) {
        case ("srgb", .linear): conversion = .encode
        case ("linear", .srgb): conversion = .decode
        default: conversion = .none
        }
        let lookUp = PointOp.lut(table, tetrahedral: p.string("interpolation") == "tetrahedral", strength: p.float("strength"))
        let ops = conversion == .none ? [lookUp] : [.transfer(conversion), lookUp, .transfer(conversion.inverse)]
        return b.add(.point(ops), on: i[0])
    }

    static let monochrome = FilterSpec(
        .monochrome, .colour, "Shades of one colour, from the luminance.",
        formula: "RGB ↦ mix(RGB, Y·C, intensity), Y = 0.2126R + 0.7152G + 0.0722B, C the colour (what white becomes) "
            + "in the working space",
        params: [
            .color("color", default: RGBA(0.72, 0.6, 0.45), "What white becomes; darker tones are shades of it"),
            .number("intensity", 0...1, default: 1, "0 unchanged, 1 fully tinted"),
        ]
    ) { b, p, i in
        let c = p.color("color"), t = p.float("intensity")
        let tint = [c.r, c.g, c.b].map { Float(b.workingSpace == .linear ? SRGB.toLinear($0) : $0) }
        let l = ColorMatrix.luma
        let rows: [[Float]] = (0..<3).map { r in (0..<3).map { k in t * tint[r] * l[k] + (r == k ? 1 - t : 0) } }
        return b.point(.matrix(.rgb(rows)), on: i[0])
    }

    static let autoLevels = FilterSpec(
        .autoLevels, .colour, "Stretches the tones to the full range, from the image's own histogram.",
        formula: "lo and hi the clipLow and clipHigh percentiles of the 8-bit sRGB-encoded histogram of each channel "
            + "(measured on a render of the input at up to 1024 px); together: the lowest lo and highest hi of the three "
            + "for every channel (the colour balance kept), perChannel: each its own (a cast neutralised); "
            + "RGB ↦ clamp((v − lo)/(hi − lo), 0, 1) with lo and hi in the working space; unchanged where hi ≤ lo",
        params: [
            .number("clipLow", 0...50, default: 0.5, "Percent of the pixels that may turn black"),
            .number("clipHigh", 0...50, default: 0.5, "Percent of the pixels that may turn white"),
            .boolean("perChannel", default: false, "Stretch red, green and blue each to its own range"),
        ]
    ) { b, p, i in
        let question = AnalysisQuestion.histogramRange(clipLow: p.number("clipLow"), clipHigh: p.number("clipHigh"))
        // Unanswered, nothing is stretched (the render answers and lowers again).
        guard case let .range(low, high)? = b.answer(question, about: i[0]) else { return i[0] }
        var lo = low, hi = high
        if !p.bool("perChannel") {
            lo = Array(repeating: low.min() ?? 0, count: 3)
            hi = Array(repeating: high.max() ?? 1, count: 3)
        }
        let space = b.workingSpace
        let working = { (v: Double) in space == .linear ? SRGB.toLinear(v) : v }
        var rows = [[Float]](repeating: [0, 0, 0], count: 3), offsets = SIMD4<Float>(0, 0, 0, 0)
        for c in 0..<3 {
            let l = working(lo[c]), h = working(hi[c])
            let scale = h > l ? 1 / (h - l) : 1
            rows[c][c] = Float(scale)
            offsets[c] = Float(h > l ? -l * scale : 0)
        }
        var matrix = ColorMatrix.rgb(rows)
        matrix.offset = offsets
        // Levels at their defaults clamp colour to [0, 1] and leave alpha alone (a clamp would announce alpha).
        return b.add(.point([.matrix(matrix), .levels(inBlack: 0, inWhite: 1, gamma: 1, outBlack: 0, outWhite: 1)]), on: i[0])
    }

    /// Bradford's cone response matrix (Lam 1985, as CIECAM97s and ICC v4 use it).
    static let bradford: [[Double]] = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]

    static let whitePoint = FilterSpec(
        .whitePoint, .colour, "Neutralises a colour cast: a picked colour becomes grey (Bradford adaptation).",
        formula: "in linear light, RGB ↦ mix(RGB, M·RGB, strength), M = XYZ→RGB · B⁻¹ · diag(B·W_D65 ⁄ B·W_c) · B · "
            + "RGB→XYZ with B Bradford's matrix and W_c the picked colour's XYZ scaled to Y = 1: the colour becomes the "
            + "neutral grey of its own luminance, white stays white for a white pick (sRGB working space: decoded first, "
            + "encoded after)",
        params: [
            .color("color", default: .white, "The colour that should be neutral (a grey card, a white wall)"),
            .number("strength", 0...1, default: 1, "0 unchanged, 1 fully neutralised"),
        ],
        check: { p in
            let c = p.color("color")
            return c.r + c.g + c.b > 0 ? [] : ["the picked colour is black: it has no hue to neutralise"]
        }
    ) { b, p, i in
        let c = p.color("color"), t = p.number("strength")
        let linear = [SRGB.toLinear(c.r), SRGB.toLinear(c.g), SRGB.toLinear(c.b)]
        func times(_ m: [[Double]], _ v: [Double]) -> [Double] { m.map { row in zip(row, v).reduce(0) { $0 + $1.0 * $1.1 } } }
        func product(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
            (0..<3).map { r in (0..<3).map { k in (0..<3).reduce(0) { $0 + a[r][$1] * b[$1][k] } } }
        }
        let source = times(SRGB.toXYZ, linear)
        let white = times(SRGB.toXYZ, [1, 1, 1])
        let coneSource = times(bradford, source.map { $0 / source[1] }), coneWhite = times(bradford, white)
        let gain = (0..<3).map { k in (0..<3).map { $0 == k ? coneWhite[k] / coneSource[k] : 0 } }
        let m = product(inverse3(SRGB.toXYZ), product(inverse3(bradford), product(gain, product(bradford, SRGB.toXYZ))))
        let rows: [[Float]] = (0..<3).map { r in (0..<3).map { k in Float(t * m[r][k] + (r == k ? 1 - t : 0)) } }
        if b.workingSpace == .linear { return b.point(.matrix(.rgb(rows)), on: i[0]) }
        return b.add(.point([.transfer(.decode), .matrix(.rgb(rows)), .transfer(.encode)]), on: i[0])
    }

    static func inverse3(_ m: [[Double]]) -> [[Double]] {
        let a = m[0][0], b = m[0][1], c = m[0][2], d = m[1][0], e = m[1][1], f = m[1][2], g = m[2][0], h = m[2][1], k = m[2][2]
        let det = a * (e * k - f * h) - b * (d * k - f * g) + c * (d * h - e * g)
        return [[(e * k - f * h) / det, (c * h - b * k) / det, (b * f - c * e) / det],
                [(f * g - d * k) / det, (a * k - c * g) / det, (c * d - a * f) / det],
                [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]
    }
}
