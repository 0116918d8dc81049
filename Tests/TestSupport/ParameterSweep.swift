import FilterCore

/// Parameter sets a filter is tested at: its defaults, each numeric parameter at its minimum and maximum, and every
/// option of each choice. Limits that would make huge outputs are capped so tests stay small.
package enum ParameterSweep {
    /// Parameters that the defaults leave invalid or trivial for a 40×28 image.
    static let base: [FilterID: [String: ParamValue]] = [
        .resize: ["scale": 0.5],
        .crop: ["x": 3, "y": 2, "width": 20, "height": 15],
        .pad: ["top": 2, "left": 3, "right": 1, "bottom": 4, "color": .color(RGBA(0.2, 0.52, 0.88, 0.6))],
        .unsharpMask: ["amount": 1.5],
        .sharpen: ["amount": 1],
        .convolve: ["kernel": .numbers([1, 2, 1, 0, 0, 0, -1, -2, -1]), "normalize": false, "bias": 0.5],
        .linearGradient: ["from": .color(RGBA(1, 0, 0, 1)), "to": .color(RGBA(0, 0, 1, 0.5)), "y1": 1],
        .checkerboard: ["size": 5],
        .text: ["text": "Ég ⅓ fi", "size": 14, "color": .color(RGBA(1, 0.6, 0.1, 0.8))],
        .rotate: ["degrees": 33, "background": .color(RGBA(0.9, 0.2, 0.1, 0.5))],
        .lut: ["path": .string(Fixtures.path("lut/twist_9.cube"))],
        .affine: ["matrix": .numbers([0.81, 0.29, 2.13, -0.21, 0.93, 3.37]), "background": .color(RGBA(0.1, 0.3, 0.9, 1))],
        .perspective: ["corners": .numbers([3, 2, 37, 5, 35.5, 26, 1, 24.5]), "background": .color(RGBA(0.1, 0.3, 0.9, 1))],
    ]

    static let caps: [String: Double] = [
        // Debug builds run these tests: wide windows would take minutes on 40×28 images for nothing new.
        "gaussianBlur.sigma": 12, "boxBlur.radius": 20, "motionBlur.radius": 30, "bilateral.sigmaSpatial": 6, "highlightsShadows.radius": 40, "localContrast.radius": 40, "zoomBlur.amount": 60, "unsharpMask.sigma": 12,
        "resize.scale": 3, "resize.width": 120, "resize.height": 90,
        "pad.top": 20, "pad.right": 20, "pad.bottom": 20, "pad.left": 20,
        "solidColor.width": 60, "solidColor.height": 60, "linearGradient.width": 60, "linearGradient.height": 60,
        "affine.width": 60, "affine.height": 60, "perspective.width": 60, "perspective.height": 60, "radialGradient.width": 60, "radialGradient.height": 60, "checkerboard.width": 60, "checkerboard.height": 60,
        "text.width": 60, "text.height": 60, "text.size": 30, "text.dpi": 144, "text.relativeSize": 0.6, "text.wrapWidth": 30,
        "text.lineSpacing": 2, "over.relativeWidth": 2,
    ]

    package static func sets(for id: FilterID) -> [(label: String, params: [String: ParamValue])] {
        let spec = id.spec
        let base = self.base[id] ?? [:]
        var sets: [(String, [String: ParamValue])] = [("defaults", base)]
        for param in spec.params {
            var values: [(String, ParamValue)] = []
            let cap = caps["\(id.rawValue).\(param.name)"]
            switch param.kind {
            case .number(let r):
                values = [("min", .number(r.lowerBound)), ("max", .number(min(r.upperBound, cap ?? .infinity)))]
            case .integer(let r):
                values = [("min", .number(Double(r.lowerBound))), ("max", .number(min(Double(r.upperBound), cap ?? .infinity)))]
            case .choice(let options):
                values = options.map { ($0, .string($0)) }
            case .boolean:
                values = [("true", .boolean(true)), ("false", .boolean(false))]
            default:
                continue
            }
            for (label, value) in values {
                var params = base
                params[param.name] = value
                if id == .resize, ["scale", "width", "height"].contains(param.name) {  // scale and width/height exclude each other
                    params = ["scale": 0, "width": 0, "height": 0, "kernel": base["kernel"] ?? "lanczos3"]
                    params[param.name] = value
                }
                sets.append(("\(param.name)=\(label)", params))
            }
        }
        if id == .resize {  // 40×28 inputs: boxes of another aspect, every fit, the compass, no enlargement
            let background = ParamValue.color(RGBA(0.9, 0.3, 0.1, 0.7))
            for fit in ResizeFit.allCases {
                sets.append(("fit=\(fit.rawValue)", ["width": 30, "height": 12, "fit": .string(fit.rawValue), "background": background]))
            }
            for position in ResizePosition.allCases where position.strategy == nil {
                sets.append(("cover,\(position.rawValue)", ["width": 17, "height": 17, "fit": "cover", "position": .string(position.rawValue)]))
                sets.append(("contain,\(position.rawValue)", ["width": 25, "height": 31, "fit": "contain",
                                                            "position": .string(position.rawValue), "background": background]))
            }
            sets.append(("cover,withoutEnlargement", ["width": 90, "height": 20, "fit": "cover", "withoutEnlargement": true]))
            sets.append(("contain,withoutEnlargement", ["width": 90, "height": 50, "fit": "contain", "withoutEnlargement": true,
                                                        "background": background]))
            sets.append(("width,withoutEnlargement", ["width": 90, "withoutEnlargement": true]))
        }
        if id == .lut {  // a 1D table over a wider domain, and a shipped look
            sets.append(("1D", ["path": .string(Fixtures.path("lut/curves_1d.cube")), "strength": 0.7]))
            sets.append(("look", ["path": .string(Fixtures.repository.appendingPathComponent("recipes/looks/teal-orange.cube").path),
                                  "interpolation": "trilinear"]))
        }
        if id == .over {  // a scaled watermark in each corner, a source larger than the backdrop hanging over it
            for position in ["southeast", "northeast", "southwest", "centre", "south"] {
                sets.append(("placed,\(position)", ["relativeWidth": 0.4, "position": .string(position), "margin": 0.05, "opacity": 0.6]))
            }
            sets.append(("larger,centre", ["relativeWidth": 1.5, "position": "centre"]))
            sets.append(("larger,southeast,margin", ["relativeWidth": 1.3, "position": "southeast", "margin": 0.1]))
        }
        if id == .trim {
            sets.append(("white", ["autoBackground": false, "background": .color(.white), "threshold": 40]))
        }
        if id == .curves {
            sets.append(("channels", ["points": .points([[0, 0.1], [0.4, 0.6], [1, 0.9]]),
                                      "red": .points([[0, 0], [0.5, 0.7], [1, 1]]), "blue": .points([[0, 0.2], [1, 0.8]])]))
        }
        if id == .median {  // radius 2 has its own network (1 and 3 are the minimum and maximum)
            sets.append(("radius=2", ["radius": 2]))
        }
        if id == .dilate || id == .erode {  // discs whose rows have several widths, a square wider than a strip
            sets.append(("disc,radius=4", ["radius": 4, "shape": "disc"]))
            sets.append(("disc,radius=11", ["radius": 11, "shape": "disc"]))
            sets.append(("radius=6", ["radius": 6]))
        }
        if id == .bilateral {  // the separable form at a wider window, and a range that smooths almost everything
            sets.append(("separable,sigmaSpatial=3", ["sigmaSpatial": 3, "method": "separable"]))
            sets.append(("sigmaRange=0.5", ["sigmaSpatial": 1.5, "sigmaRange": 0.5]))
        }
        if id == .highlightsShadows || id == .localContrast {  // a base at full size (radius under 8: no shrink)
            sets.append(("radius=6", ["radius": 6]))
        }
        if id == .motionBlur {  // diagonal and steep directions, a fractional radius
            sets.append(("angle=33,radius=4.5", ["radius": 4.5, "angle": 33]))
            sets.append(("angle=-100,radius=7", ["radius": 7, "angle": -100]))
        }
        if id == .zoomBlur {  // a centre off the image's middle and on its corner
            sets.append(("off-centre", ["amount": 9, "centerX": 0.2, "centerY": 0.7]))
            sets.append(("corner", ["amount": 30, "centerX": 1, "centerY": 0]))
        }
        if id == .rotate {  // quarter turns that keep or change the canvas, and a shrinking affine
            for degrees in [90.0, -90, 180, 270, -17.5] {
                for canvas in ["fit", "crop", "inside"] { sets.append(("degrees=\(degrees),\(canvas)", ["degrees": .number(degrees), "canvas": .string(canvas)])) }
            }
        }
        if id == .affine {
            sets.append(("shrink", ["matrix": .numbers([0.3, 0.05, 1, -0.04, 0.25, 2]), "kernel": "lanczos3"]))
            sets.append(("mirror", ["matrix": .numbers([-1, 0, 40, 0, 1, 0]), "kernel": "nearest"]))
        }
        if id == .perspective {  // a projective matrix, one whose vanishing line crosses the output, a strong shrink
            sets.append(("matrix", ["corners": .numbers([]), "kernel": "lanczos3",
                                    "matrix": .numbers([0.9, 0.1, 2, -0.05, 1.0, 1, 0.004, -0.003, 1])]))
            sets.append(("horizon", ["corners": .numbers([]), "matrix": .numbers([1, 0, 0, 0, 1, 0, 0.03, 0, 1]),
                                     "background": .color(RGBA(0.9, 0.2, 0.1, 0.5))]))
            sets.append(("shrink", ["corners": .numbers([-200, -150, 240, -120, 260, 180, -220, 170]), "width": 20,
                                    "height": 14, "kernel": "bilinear"]))
        }
        if id == .colorMatrix {
            sets.append(("swap", ["matrix": .numbers([0, 1, 0, 0, 0.1, 1, 0, 0, 0, 0, 0, 0, 0.5, 0, 0.2, 0, 0, 0, 0.8, 0])]))
        }
        return sets
    }

    /// One-node recipes of `id` at every valid swept parameter set, reading "main" (and "other", "mask" for filters
    /// with more inputs: the second input is the backdrop "main", as the output takes its size).
    package static func recipes(for id: FilterID, space: WorkingSpace = .linear) -> [(label: String, recipe: Recipe)] {
        let spec = id.spec
        return sets(for: id).compactMap { label, params in
            var node = Recipe.Node(id: "f", op: id, inputs: ["main"], params: params)
            if spec.inputs.count == 2 { node.inputs = ["other", "main"] }
            if spec.inputs.count == 3 { node.inputs = ["other", "main", "mask"] }
            guard spec.check(node.params).isEmpty else { return nil }
            return (label, Recipe(workingSpace: space, inputs: ["main", "other", "mask"], nodes: [node], output: "f"))
        }
    }
}
