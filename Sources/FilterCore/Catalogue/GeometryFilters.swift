import Foundation

/// Filters that move pixels.
enum GeometryFilters {
    static let resize = FilterSpec(
        .resize, .geometry, "Resamples to a new size; fits a box by stretching, cropping (smart crops too) or letterboxing.",
        formula: "separable resampling, sample centres at (i + ½)·in/out − ½, kernel widened by the factor when "
            + "shrinking; give scale, or width and/or height (one of them keeps the aspect ratio); with both, fit "
            + "(sharp's definitions): fill stretches, inside/outside keep the aspect and scale to fit inside/cover the "
            + "box, cover then crops to the box, contain then centres it on a box of background; position places the "
            + "crop or the image (compass points; half the excess rounded down for the centre); attention (libvips "
            + "8.14 smartcrop) reduces the scaled image to 32×32, scores |5·Laplacian(Y)| + (where Y > 5) skin "
            + "100·(1 − |XYZ/‖XYZ‖ − (0.78, 0.57, 0.44)|) + a*, blurs with σ = max(window diagonal in cells ÷ 10, 1) "
            + "and centres the crop on the peak's cell; entropy cuts the edge slice of least summed channel-histogram "
            + "entropy (slices of an eighth of the excess) until the window is left, measured on the scaled image at up "
            + "to 1024 px; withoutEnlargement "
            + "caps the factor at 1",
        params: [
            .number("scale", 0...100, default: 0, "Factor for both axes (0: use width/height)"),
            .integer("width", 0...1_000_000, default: 0, "Output width in pixels (0: from height or scale)"),
            .integer("height", 0...1_000_000, default: 0, "Output height in pixels (0: from width or scale)"),
            .choice("kernel", ResampleKernel.allCases.map(\.rawValue), default: "lanczos3", "Reconstruction kernel"),
            .choice("fit", ResizeFit.allCases.map(\.rawValue), default: "fill",
                    "With width and height: fill stretches; contain letterboxes; cover crops; inside/outside keep the aspect"),
            .choice("position", ResizePosition.allCases.map(\.rawValue), default: "centre",
                    "What a cover crop keeps or where contain places the image; attention and entropy look at the pixels"),
            .boolean("withoutEnlargement", default: false, "Never scale up (the output may be smaller than asked)"),
            .color("background", default: .clear, "Colour of a contain box around the image"),
        ],
        tolerance: 2,
        check: { p in
            let hasScale = p.number("scale") > 0, hasSize = p.int("width") > 0 || p.int("height") > 0
            if hasScale && hasSize { return ["give scale or width/height, not both"] }
            if !hasScale && !hasSize { return ["give scale, width or height"] }
            let fit = ResizeFit(rawValue: p.string("fit")) ?? .fill
            let position = ResizePosition(rawValue: p.string("position")) ?? .centre
            if fit != .fill && !(p.int("width") > 0 && p.int("height") > 0) {
                return ["fit \"\(fit.rawValue)\" needs both width and height (with one, the aspect is always kept)"]
            }
            if position != .centre && fit != .cover && fit != .contain {
                return ["position applies to fit \"cover\" or \"contain\" (fit is \"\(fit.rawValue)\")"]
            }
            if position.strategy != nil && fit != .cover {
                return ["position \"\(position.rawValue)\" chooses a crop: it needs fit \"cover\""]
            }
            return []
        }
    ) { b, p, i in
        let (w, h) = b.size(i[0])
        let fit = ResizeFit(rawValue: p.string("fit"))!
        let position = ResizePosition(rawValue: p.string("position"))!
        let sizes = ResizeSizes(inWidth: w, inHeight: h, scale: p.number("scale"), width: p.int("width"),
                                height: p.int("height"), fit: fit, withoutEnlargement: p.bool("withoutEnlargement"))
        for (outW, outH) in [(sizes.scaledWidth, sizes.scaledHeight), (sizes.width, sizes.height)] {
            guard outW.multipliedReportingOverflow(by: outH).partialValue <= 1 << 28 else {
                throw PlanError("resize to \(outW)×\(outH) exceeds the limit of 2^28 pixels")
            }
        }
        let kernel = ResampleKernel(rawValue: p.string("kernel"))!
        var x = position.offset(excess: abs(sizes.scaledWidth - sizes.width), horizontal: true)
        var y = position.offset(excess: abs(sizes.scaledHeight - sizes.height), horizontal: false)
        let crops = sizes.width < sizes.scaledWidth || sizes.height < sizes.scaledHeight
        if crops, let strategy = position.strategy {
            let question = AnalysisQuestion.cropWindow(strategy: strategy, width: sizes.width, height: sizes.height,
                                                       scaledWidth: sizes.scaledWidth, scaledHeight: sizes.scaledHeight)
            // Unanswered, the crop is provisionally centred (the render answers and lowers again).
            if case .offset(let ax, let ay)? = b.answer(question, about: i[0]) {
                x = min(max(ax, 0), sizes.scaledWidth - sizes.width)
                y = min(max(ay, 0), sizes.scaledHeight - sizes.height)
            }
        }
        let scaled = resampled(&b, i[0], width: sizes.scaledWidth, height: sizes.scaledHeight, kernel: kernel)
        if crops { return b.add(.crop(x: x, y: y), [scaled], width: sizes.width, height: sizes.height) }
        if sizes.width > sizes.scaledWidth || sizes.height > sizes.scaledHeight {
            return b.add(.pad(top: y, left: x, color: p.color("background")), [scaled], width: sizes.width, height: sizes.height)
        }
        return scaled
    }

    /// `input` resampled to outW×outH (itself when the size is unchanged).
    static func resampled(_ b: inout PlanBuilder, _ input: PlanBuilder.Ref, width outW: Int, height outH: Int,
                          kernel: ResampleKernel) -> PlanBuilder.Ref {
        let (w, h) = b.size(input)
        var ref = input
        for pass in ResampleKernel.passes(from: (w, h), to: (outW, outH)) {
            ref = b.add(.resample(axis: pass.axis, kernel: kernel), [ref], width: pass.width, height: pass.height)
        }
        return ref
    }

    static let crop = FilterSpec(
        .crop, .geometry, "Keeps a rectangle.",
        formula: "out(x, y) = in(x + x₀, y + y₀); width/height 0 extend to the right/bottom edge",
        params: [
            .integer("x", 0...1_000_000, default: 0, "Left edge"),
            .integer("y", 0...1_000_000, default: 0, "Top edge"),
            .integer("width", 0...1_000_000, default: 0, "Width (0: to the right edge)"),
            .integer("height", 0...1_000_000, default: 0, "Height (0: to the bottom edge)"),
        ],
        tolerance: 0
    ) { b, p, i in
        let (w, h) = b.size(i[0])
        let x = p.int("x"), y = p.int("y")
        let cw = p.int("width") == 0 ? w - x : p.int("width")
        let ch = p.int("height") == 0 ? h - y : p.int("height")
        guard x < w, y < h, cw > 0, ch > 0, x + cw <= w, y + ch <= h else {
            throw PlanError("crop rectangle x \(x), y \(y), \(cw)×\(ch) does not fit the \(w)×\(h) input")
        }
        if x == 0 && y == 0 && cw == w && ch == h { return i[0] }
        return b.add(.crop(x: x, y: y), [i[0]], width: cw, height: ch)
    }

    static let flip = FilterSpec(
        .flip, .geometry, "Mirrors the image.",
        formula: "horizontal: out(x, y) = in(w − 1 − x, y); vertical: out(x, y) = in(x, h − 1 − y)",
        params: [.choice("direction", ["horizontal", "vertical"], default: "horizontal", "Axis to mirror")],
        tolerance: 0
    ) { b, p, i in b.add(.flip(horizontal: p.string("direction") == "horizontal"), on: i[0]) }

    static let rotate = FilterSpec(
        .rotate, .geometry, "Rotates clockwise by any angle; multiples of 90° turn losslessly.",
        formula: "out(p) = Σ k(pᵢ − q)·in(pᵢ), q = R(−θ)(p − c_out) + c_in about the centres (2D kernel, taps outside "
            + "the input read background); fit: the canvas grows to the rotated bounds, crop: it keeps the input's "
            + "size, inside: the largest centred rectangle of the input's shape whose every tap lies in the image "
            + "(straightening); θ a multiple of 90° (with a canvas that fits exactly) moves pixels without resampling",
        params: [
            angleParam,
            .choice("canvas", ["fit", "crop", "inside"], default: "fit",
                    "fit: grow to hold the whole image; crop: keep the size; inside: shrink to what the image covers"),
            .color("background", default: .clear, "Colour of the uncovered corners"),
            .choice("kernel", ResampleKernel.allCases.map(\.rawValue), default: "bicubic", "Interpolation kernel"),
        ],
        tolerance: 2
    ) { b, p, i in
        let (w, h) = b.size(i[0])
        let degrees = p.number("degrees")
        let kernel = ResampleKernel(rawValue: p.string("kernel"))!
        let quarter = (degrees / 90).rounded()
        let size: (Int, Int)
        switch p.string("canvas") {
        case "crop": size = (w, h)
        case "inside" where quarter * 90 != degrees:
            size = WarpMap.insideSize(degrees: degrees, width: w, height: h, radius: kernel == .nearest ? 0 : kernel.radius)
        default: size = WarpMap.rotatedSize(degrees: degrees, width: w, height: h)
        }
        if quarter * 90 == degrees {
            let turns = ((Int(quarter) % 4) + 4) % 4
            let turned = turns % 2 == 1 ? (h, w) : (w, h)
            if turned == size {
                if turns == 0 { return i[0] }
                return b.add(.rotate(quarterTurns: turns), [i[0]], width: size.0, height: size.1)
            }
        }
        try checkedSize(size.0, size.1)
        let map = WarpMap.rotation(degrees: degrees, width: w, height: h, outWidth: size.0, outHeight: size.1)
        return b.add(.warp(map, kernel: kernel, background: p.color("background")), [i[0]], width: size.0, height: size.1)
    }

    /// Rotate's angle: a number now, once a choice of "90", "180" and "270" (still read).
    static let straighten = FilterSpec(
        .straighten, .geometry, "Levels a tilted photo: rotates it and keeps the largest upright rectangle it covers.",
        formula: "rotate by degrees with canvas \"inside\": the largest centred rectangle of the input's shape whose "
            + "every tap lies in the rotated image, so no background shows",
        params: [
            .number("degrees", -45...45, default: 0, "Clockwise tilt correction in degrees"),
            .choice("kernel", ResampleKernel.allCases.map(\.rawValue), default: "bicubic", "Interpolation kernel"),
        ],
        tolerance: 2
    ) { b, p, i in
        var turn = FilterID.rotate.spec.defaults
        turn.set("degrees", .number(p.number("degrees")))
        turn.set("canvas", .string("inside"))
        turn.set("kernel", .string(p.string("kernel")))
        return try rotate.lower(&b, turn, i)
    }

    static var angleParam: ParamSpec {
        var spec = ParamSpec.number("degrees", -360...360, default: 90, "Clockwise angle in degrees")
        spec.acceptsNumericString = true
        return spec
    }

    static let affine = FilterSpec(
        .affine, .geometry, "Transforms by a 2×3 matrix (scale, rotate, shear, translate) with exact resampling.",
        formula: "the matrix [a, b, c, d, e, f] maps input to output, x′ = a·x + b·y + c, y′ = d·x + e·y + f, in pixels "
            + "from the top-left corner (pixel centres at i + ½; OpenCV's warpAffine puts them at i); each output pixel "
            + "samples the input at the inverse map with the 2D kernel, widened by the shrink factor along each input "
            + "axis; taps outside the input read background",
        params: [
            ParamSpec("matrix", .numbers(counts: [6], range: -1_000_000...1_000_000),
                      default: .numbers([1, 0, 0, 0, 1, 0]), "Row-major 2×3 matrix [a, b, c, d, e, f]"),
            .integer("width", 0...1_000_000, default: 0, "Output width (0: the input's)"),
            .integer("height", 0...1_000_000, default: 0, "Output height (0: the input's)"),
            .color("background", default: .clear, "Colour where the output sees no input"),
            .choice("kernel", ResampleKernel.allCases.map(\.rawValue), default: "bicubic", "Interpolation kernel"),
        ],
        tolerance: 2,
        check: { p in
            WarpMap(inverting: p.numbers("matrix")) == nil ? ["matrix is singular (a·e − b·d = 0): it has no inverse"] : []
        }
    ) { b, p, i in
        let (w, h) = b.size(i[0])
        let outW = p.int("width") == 0 ? w : p.int("width"), outH = p.int("height") == 0 ? h : p.int("height")
        let matrix = p.numbers("matrix")
        if matrix == [1, 0, 0, 0, 1, 0] && outW == w && outH == h { return i[0] }
        try checkedSize(outW, outH)
        guard let map = WarpMap(inverting: matrix) else { throw PlanError("affine matrix is singular") }
        return b.add(.warp(map, kernel: ResampleKernel(rawValue: p.string("kernel"))!, background: p.color("background")),
                     [i[0]], width: outW, height: outH)
    }

    static let perspective = FilterSpec(
        .perspective, .geometry,
        "Corrects or applies perspective: four corners of the input become the output rectangle, or a 3×3 matrix.",
        formula: "corners [x₀, y₀ … x₃, y₃] (top-left, top-right, bottom-right, bottom-left, pixels from the input's "
            + "top-left corner) map onto the output's corners; or the matrix [a … i] maps input to output, "
            + "x′ = (a·x + b·y + c) / (g·x + h·y + i), y′ = (d·x + e·y + f) / (g·x + h·y + i); each output pixel "
            + "(centre i + ½) samples the input at the inverse map with the 2D kernel, widened by the local shrink "
            + "factor along each input axis (the rows of the inverse map's Jacobian, from 1 to 16); taps outside the "
            + "input, and points behind the view (denominator ≤ 0), read background",
        params: [
            ParamSpec("corners", .numbers(counts: [0, 8], range: -1_000_000...1_000_000), default: .numbers([]),
                      "The input's quadrilateral [x₀, y₀, x₁, y₁, x₂, y₂, x₃, y₃] from the top-left corner clockwise "
                        + "([]: use matrix)"),
            ParamSpec("matrix", .numbers(counts: [9], range: -1_000_000...1_000_000),
                      default: .numbers([1, 0, 0, 0, 1, 0, 0, 0, 1]), "Row-major 3×3 matrix [a … i], input to output"),
            .integer("width", 0...1_000_000, default: 0,
                     "Output width (0: the input's, or with corners the mean of the top and bottom sides)"),
            .integer("height", 0...1_000_000, default: 0,
                     "Output height (0: the input's, or with corners the mean of the left and right sides)"),
            .color("background", default: .clear, "Colour where the output sees no input"),
            .choice("kernel", ResampleKernel.allCases.map(\.rawValue), default: "bicubic", "Interpolation kernel"),
        ],
        tolerance: 2,
        check: { p in
            let corners = p.numbers("corners")
            if !corners.isEmpty {
                var problems = [String]()
                if p.numbers("matrix") != [1, 0, 0, 0, 1, 0, 0, 0, 1] {
                    problems.append("corners and matrix both given: give one (corners, or matrix with corners [])")
                }
                if !WarpMap.isConvex(corners) {
                    problems.append("corners do not form a convex quadrilateral: list the top-left, top-right, "
                                    + "bottom-right and bottom-left corners in order, no three on a line")
                }
                return problems
            }
            return WarpMap(inverting: p.numbers("matrix")) == nil
                ? ["matrix is singular (its determinant is 0): it has no inverse"] : []
        }
    ) { b, p, i in
        let (w, h) = b.size(i[0])
        let corners = p.numbers("corners"), matrix = p.numbers("matrix")
        let background = p.color("background"), kernel = ResampleKernel(rawValue: p.string("kernel"))!
        if corners.isEmpty {
            let outW = p.int("width") == 0 ? w : p.int("width"), outH = p.int("height") == 0 ? h : p.int("height")
            if matrix == [1, 0, 0, 0, 1, 0, 0, 0, 1] && outW == w && outH == h { return i[0] }
            try checkedSize(outW, outH)
            guard let map = WarpMap(inverting: matrix) else { throw PlanError("perspective matrix is singular") }
            return b.add(.warp(map.facing(Double(outW) / 2, Double(outH) / 2), kernel: kernel, background: background),
                         [i[0]], width: outW, height: outH)
        }
        func side(_ j: Int, _ k: Int) -> Double {
            ((corners[2 * j] - corners[2 * k]) * (corners[2 * j] - corners[2 * k])
                + (corners[2 * j + 1] - corners[2 * k + 1]) * (corners[2 * j + 1] - corners[2 * k + 1])).squareRoot()
        }
        func length(_ v: Double) -> Int { max(1, Int(min(v, 1_000_000).rounded())) }
        let outW = p.int("width") == 0 ? length((side(0, 1) + side(3, 2)) / 2) : p.int("width")
        let outH = p.int("height") == 0 ? length((side(0, 3) + side(1, 2)) / 2) : p.int("height")
        try checkedSize(outW, outH)
        guard let map = WarpMap(output: outW, outH, onto: corners) else {
            throw PlanError("perspective corners do not form a convex quadrilateral")
        }
        if map == WarpMap(1, 0, 0, 0, 1, 0) && outW == w && outH == h { return i[0] }
        return b.add(.warp(map, kernel: kernel, background: background), [i[0]], width: outW, height: outH)
    }

    static func checkedSize(_ w: Int, _ h: Int) throws {
        guard w.multipliedReportingOverflow(by: h).partialValue <= 1 << 28 else {
            throw PlanError("an output of \(w)×\(h) exceeds the limit of 2^28 pixels")
        }
    }

    static let transpose = FilterSpec(
        .transpose, .geometry, "Swaps rows and columns.", formula: "out(x, y) = in(y, x)", tolerance: 0
    ) { b, _, i in
        let (w, h) = b.size(i[0])
        return b.add(.transpose, [i[0]], width: h, height: w)
    }

    static let pad = FilterSpec(
        .pad, .geometry, "Adds borders of a colour.",
        formula: "the input at (left, top) on a (left + w + right)×(top + h + bottom) canvas of color",
        params: [
            .integer("top", 0...100_000, default: 0, "Rows above"),
            .integer("right", 0...100_000, default: 0, "Columns to the right"),
            .integer("bottom", 0...100_000, default: 0, "Rows below"),
            .integer("left", 0...100_000, default: 0, "Columns to the left"),
            .color("color", default: .clear, "Border colour"),
        ],
        tolerance: 1  // the border colour goes through float32 working values
    ) { b, p, i in
        let (w, h) = b.size(i[0])
        let outW = w + p.int("left") + p.int("right"), outH = h + p.int("top") + p.int("bottom")
        if outW == w && outH == h { return i[0] }
        return b.add(.pad(top: p.int("top"), left: p.int("left"), color: p.color("color")), [i[0]],
                     width: outW, height: outH)
    }

    static let trim = FilterSpec(
        .trim, .geometry, "Crops away a border of near-uniform colour.",
        formula: "the bounding box of the pixels whose 3×3 median differs from the background by more than threshold "
            + "8-bit codes in a channel of its sRGB-encoded colour premultiplied by alpha, or in alpha; the background "
            + "is the top-left pixel's median, or background; the whole image when no pixel differs (libvips "
            + "find_trim, sharp's trim); the box is found by a render of the input before the recipe runs",
        params: [
            .number("threshold", 0...255, default: 10, "Largest difference, in 8-bit codes, still taken for background"),
            .boolean("autoBackground", default: true, "Take the background from the top-left pixel (false: background)"),
            .color("background", default: .white, "The background's colour when autoBackground is false"),
        ],
        tolerance: 0
    ) { b, p, i in
        let (w, h) = b.size(i[0])
        let question = AnalysisQuestion.trim(threshold: p.number("threshold"),
                                             background: p.bool("autoBackground") ? nil : p.color("background"))
        // Unanswered, the whole image stands in (the render answers and lowers again).
        guard case let .rect(x, y, cw, ch)? = b.answer(question, about: i[0]) else { return i[0] }
        guard x >= 0, y >= 0, cw > 0, ch > 0, x + cw <= w, y + ch <= h else {
            throw PlanError("trim found the box x \(x), y \(y), \(cw)×\(ch) outside the \(w)×\(h) input")
        }
        if x == 0 && y == 0 && cw == w && ch == h { return i[0] }
        return b.add(.crop(x: x, y: y), [i[0]], width: cw, height: ch)
    }
}
