/// The words people reach for when they mean a catalogue filter (the names other tools use), so an unknown filter
/// gets the filter it means rather than only the nearest spelling.
package enum FilterSynonyms {
    /// What a word may mean: filters, each with the parameter that does it when the filter does several things.
    struct Meaning {
        let filter: FilterID
        let parameter: String?
        init(_ filter: FilterID, _ parameter: String? = nil) { self.filter = filter; self.parameter = parameter }
        var text: String { parameter.map { "\"\(filter.rawValue)\" with its \"\($0)\" parameter" } ?? "\"\(filter.rawValue)\"" }
    }

    /// Lowercased, without spaces, hyphens or underscores.
    static let table: [String: [Meaning]] = {
        var table = [String: [Meaning]]()
        func add(_ words: [String], _ meanings: Meaning...) { for word in words { table[word] = meanings } }
        add(["blur", "gaussian", "gauss", "smooth", "soften"], Meaning(.gaussianBlur), Meaning(.boxBlur))
        add(["boxfilter", "meanfilter", "averageblur"], Meaning(.boxBlur))
        add(["saturation", "saturate", "desaturate", "modulate"], Meaning(.colorControls, "saturation"), Meaning(.vibrance))
        add(["brightness", "brighten", "darken"], Meaning(.colorControls, "brightness"), Meaning(.exposure))
        add(["contrast"], Meaning(.colorControls, "contrast"), Meaning(.curves))
        add(["ev", "exposurecompensation"], Meaning(.exposure))
        add(["sharpness", "sharp"], Meaning(.sharpen), Meaning(.unsharpMask))
        add(["unsharp", "usm"], Meaning(.unsharpMask))
        add(["greyscale", "grey", "gray", "monochrome", "mono", "blackandwhite", "bw", "desaturated"], Meaning(.grayscale))
        add(["hue", "rotatehue", "huerotation", "hueshift"], Meaning(.hueRotate))
        add(["temperature", "whitebalance", "warmth", "warm", "tint", "wb"], Meaning(.temperatureTint))
        add(["scale", "thumbnail", "resample", "shrink", "downscale", "upscale", "size"], Meaning(.resize))
        add(["mirror", "flop", "flipx", "flipy"], Meaning(.flip))
        add(["negate", "negative"], Meaning(.invert))
        add(["edges", "edge", "edgedetect", "outline"], Meaning(.sobel))
        add(["denoise", "despeckle", "grain", "chromanoise"], Meaning(.noiseReduction), Meaning(.median), Meaning(.bilateral))
        add(["dilation", "maximum", "maxfilter", "grow", "expand"], Meaning(.dilate))
        add(["erosion", "minimum", "minfilter", "shrinkmask", "contract"], Meaning(.erode))
        add(["morphology", "morph"], Meaning(.dilate), Meaning(.erode))
        add(["motion", "directionalblur", "linearblur", "shake"], Meaning(.motionBlur))
        add(["zoom", "radialblur", "zoomburst"], Meaning(.zoomBlur))
        add(["shadows", "highlights", "shadowhighlight", "filllight", "recovery"], Meaning(.highlightsShadows))
        add(["clarity", "structure", "detail", "localcontrast"], Meaning(.localContrast))
        add(["bilateralfilter", "edgepreserving", "surfaceblur", "smartblur"], Meaning(.bilateral))
        add(["alpha", "transparency", "fade"], Meaning(.opacity), Meaning(.setAlpha))
        add(["composite", "overlay", "watermark"], Meaning(.over), Meaning(.blend))
        add(["gradient"], Meaning(.linearGradient), Meaning(.radialGradient))
        add(["fill", "color", "colour", "flood"], Meaning(.solidColor))
        add(["border", "margin", "extend", "embed", "canvas"], Meaning(.pad))
        add(["tonecurve", "curve", "tone"], Meaning(.curves))
        add(["lut", "colourmatrix", "recomb", "channelmixer"], Meaning(.colorMatrix))
        add(["rotation", "rotate90", "turn"], Meaning(.rotate))
        add(["level", "deskew", "horizon", "tilt"], Meaning(.straighten))
        add(["extract", "cut"], Meaning(.crop))
        add(["smartcrop", "autocrop", "fit", "cover", "contain", "letterbox", "thumbnailcrop"], Meaning(.resize, "fit"))
        add(["findtrim", "trimborder", "cropborder", "removeborder"], Meaning(.trim))
        add(["warp", "transform", "shear", "skew"], Meaning(.affine))
        add(["perspectivecorrection", "keystone", "homography", "warpperspective", "quad", "deskewdocument"],
            Meaning(.perspective))
        add(["caption", "watermark", "label", "annotate", "drawtext", "puttext", "typeset"], Meaning(.text))
        add(["binarize", "binarise"], Meaning(.threshold))
        add(["kernel", "filter2d", "conv"], Meaning(.convolve))
        add(["vignetting"], Meaning(.vignette))
        add(["toning", "vintage"], Meaning(.sepia))
        return table
    }()

    /// The meanings of `word`, if people use it for catalogue filters.
    static func meanings(of word: String) -> [Meaning] {
        let key = word.lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" }
        return table[key] ?? []
    }

    /// " (did you mean …?)" for an unknown filter name: the filters the word means, else the nearest spelling.
    package static func hint(forFilter name: String) -> String {
        let meanings = meanings(of: name)
        guard !meanings.isEmpty else { return NearestName.hint(for: name, in: FilterID.allCases.map(\.rawValue)) }
        let texts = meanings.map(\.text)
        return " (did you mean " + (texts.count == 1 ? texts[0] : texts.dropLast().joined(separator: ", ") + " or " + texts.last!) + "?)"
    }
}
