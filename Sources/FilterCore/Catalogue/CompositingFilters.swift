/// Filters that combine images. The output has the backdrop's size; a smaller source is transparent outside.
enum CompositingFilters {
    static let blend = FilterSpec(
        .blend, .compositing, "Blends a source image onto a backdrop with a blend mode.",
        formula: "W3C Compositing: co = cs(1 − αb) + cb(1 − αs) + αs·αb·B(Cb, Cs), αo = αs + αb(1 − αs); "
            + "αs scaled by opacity; B per W3C §9 on straight colour in the working space (hue, saturation, color, "
            + "luminosity through Lum = 0.3R + 0.59G + 0.11B, SetLum, ClipColor, SetSat); "
            + "add: B = min(Cb + Cs, 1), subtract: B = max(Cb − Cs, 0)",
        inputs: ["source", "backdrop"],
        params: [
            .choice("mode", BlendMode.allCases.map(\.rawValue), default: "normal", "Blend mode"),
            .number("opacity", 0...1, default: 1, "Source opacity"),
        ]
    ) { b, p, i in
        let (w, h) = b.size(i[1])
        return b.add(.blend(mode: BlendMode(rawValue: p.string("mode"))!, opacity: p.float("opacity")), i,
                     width: w, height: h)
    }

    static let blendWithMask = FilterSpec(
        .blendWithMask, .compositing, "Mixes two images through a mask.",
        formula: "out = mix(background, foreground, m), m = luminance(mask) × alpha(mask) (straight mask values)",
        inputs: ["foreground", "background", "mask"]
    ) { b, _, i in
        let (w, h) = b.size(i[1])
        return b.add(.blendWithMask(coverage: false), i, width: w, height: h)
    }

    static let setAlpha = FilterSpec(
        .setAlpha, .compositing, "Takes the image's transparency from a mask (a grey image, or any image's alpha).",
        formula: "co = cs (straight colour kept), αo = αs × m, m = the mask's stored grey level in 0…1 "
            + "(sRGB-encoded luminance, so grey 128 gives alpha 128) × mask alpha; transparent outside the mask",
        inputs: ["source", "mask"]
    ) { b, _, i in
        let (w, h) = b.size(i[0])
        let clear = b.add(.generate(.solid(.clear)), [], width: w, height: h)
        return b.add(.blendWithMask(coverage: true), [i[0], clear, i[1]], width: w, height: h)
    }

    static let over = FilterSpec(
        .over, .compositing, "Porter–Duff source over backdrop.",
        formula: "co = cs + cb(1 − αs), αo = αs + αb(1 − αs) (premultiplied)",
        inputs: ["source", "backdrop"]
    ) { b, _, i in
        let (w, h) = b.size(i[1])
        return b.add(.blend(mode: .normal, opacity: 1), i, width: w, height: h)
    }
}
