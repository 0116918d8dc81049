import Foundation

/// Filters that move pixels.
enum GeometryFilters {
    static let resize = FilterSpec(
        .resize, .geometry, "Resamples to a new size.",
        formula: "separable resampling, sample centres at (i + ½)·in/out − ½, kernel widened by the factor when "
            + "shrinking; give scale, or width and/or height (one of them keeps the aspect ratio)",
        params: [
            .number("scale", 0...100, default: 0, "Factor for both axes (0: use width/height)"),
            .integer("width", 0...1_000_000, default: 0, "Output width in pixels (0: from height or scale)"),
            .integer("height", 0...1_000_000, default: 0, "Output height in pixels (0: from width or scale)"),
            .choice("kernel", ResampleKernel.allCases.map(\.rawValue), default: "lanczos3", "Reconstruction kernel"),
        ],
        tolerance: 2,
        check: { p in
            let hasScale = p.number("scale") > 0, hasSize = p.int("width") > 0 || p.int("height") > 0
            if hasScale && hasSize { return ["give scale or width/height, not both"] }
            if !hasScale && !hasSize { return ["give scale, width or height"] }
            return []
        }
    ) { b, p, i in
        let (w, h) = b.size(i[0])
        var outW = p.int("width"), outH = p.int("height")
        if p.number("scale") > 0 {
            outW = Int((Double(w) * p.number("scale")).rounded())
            outH = Int((Double(h) * p.number("scale")).rounded())
        } else if outW == 0 {
            outW = Int((Double(w) * Double(outH) / Double(h)).rounded())
        } else if outH == 0 {
            outH = Int((Double(h) * Double(outW) / Double(w)).rounded())
        }
        outW = max(1, outW)
        outH = max(1, outH)
        guard outW.multipliedReportingOverflow(by: outH).partialValue <= 1 << 28 else {
            throw PlanError("resize to \(outW)×\(outH) exceeds the limit of 2^28 pixels")
        }
        if outW == w && outH == h { return i[0] }
        let kernel = ResampleKernel(rawValue: p.string("kernel"))!
        var ref = i[0]
        if outW != w { ref = b.add(.resample(axis: .horizontal, kernel: kernel), [ref], width: outW, height: h) }
        if outH != h { ref = b.add(.resample(axis: .vertical, kernel: kernel), [ref], width: outW, height: outH) }
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
        .rotate, .geometry, "Rotates clockwise by a multiple of 90°.",
        formula: "90: out(x, y) = in(y, h − 1 − x); 180 and 270 likewise",
        params: [.choice("degrees", ["90", "180", "270"], default: "90", "Clockwise angle")],
        tolerance: 0
    ) { b, p, i in
        let turns = Int(p.string("degrees"))! / 90
        let (w, h) = b.size(i[0])
        return b.add(.rotate(quarterTurns: turns), [i[0]], width: turns == 2 ? w : h, height: turns == 2 ? h : w)
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
}
