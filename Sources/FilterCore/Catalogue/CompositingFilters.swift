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
        .over, .compositing, "Porter–Duff source over backdrop, the source placed, scaled and faded (a watermark, a logo).",
        formula: "co = cs + cb(1 − αs), αo = αs + αb(1 − αs) (premultiplied), αs scaled by opacity; the source is "
            + "first resampled (Lanczos 3) to relativeWidth × the backdrop's width, its aspect kept (0: its own size), "
            + "then placed at position, margin × the backdrop's shorter side from the edges it sits against; "
            + "transparent outside",
        inputs: ["source", "backdrop"],
        params: [
            .choice("position", ResizePosition.allCases.filter { $0.strategy == nil }.map(\.rawValue), default: "northwest",
                    "Where the source sits on the backdrop: the centre or a compass point"),
            .number("margin", 0...0.5, default: 0, "Space between the source and the edges, as a fraction of the backdrop's shorter side"),
            .number("relativeWidth", 0...4, default: 0,
                    "The source's width as a fraction of the backdrop's width, its aspect kept (0: its own size)"),
            .number("opacity", 0...1, default: 1, "Source opacity"),
        ]
    ) { b, p, i in
        let (w, h) = b.size(i[1])
        var source = i[0]
        let (sw0, sh0) = b.size(source)
        if p.number("relativeWidth") > 0 {
            let width = max(1, Int((p.number("relativeWidth") * Double(w)).rounded()))
            let height = max(1, Int((Double(sh0) * Double(width) / Double(sw0)).rounded()))
            source = GeometryFilters.resampled(&b, source, width: width, height: height, kernel: .lanczos3)
        }
        let (sw, sh) = b.size(source)
        let position = ResizePosition(rawValue: p.string("position")) ?? .northwest
        let margin = Int((p.number("margin") * Double(min(w, h))).rounded())
        // The source's left and top edge on the backdrop (negative where a larger source hangs over): the margin
        // pushes away from the edge the source sits against; a centred source stays centred.
        func place(_ excess: Int, horizontal: Bool) -> Int {
            let (start, end) = position.edges(horizontal: horizontal)
            return start ? margin : end ? excess - margin : (excess < 0 ? -(-excess / 2) : excess / 2)
        }
        let x = place(w - sw, horizontal: true), y = place(h - sh, horizontal: false)
        // The part that lands on the backdrop, cropped and padded with transparency to the backdrop's size (nothing
        // to do where the source already sits at the top left inside it: the blend reads it as transparent beyond).
        let left = max(0, -x), top = max(0, -y)
        let visibleWidth = min(sw - left, w - max(0, x)), visibleHeight = min(sh - top, h - max(0, y))
        guard visibleWidth > 0, visibleHeight > 0 else { return i[1] }
        if left > 0 || top > 0 || visibleWidth < sw || visibleHeight < sh {
            source = b.add(.crop(x: left, y: top), [source], width: visibleWidth, height: visibleHeight)
        }
        if x > 0 || y > 0 {
            source = b.add(.pad(top: max(0, y), left: max(0, x), color: .clear), [source],
                           width: max(0, x) + visibleWidth, height: max(0, y) + visibleHeight)
        }
        return b.add(.blend(mode: .normal, opacity: p.float("opacity")), [source, i[1]], width: w, height: h)
    }
}
