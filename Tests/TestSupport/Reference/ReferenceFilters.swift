import FilterCore
import Foundation

/// Plain float64 implementations of every catalogue filter, written from the formulas in the catalogue, not from
/// the backends. Slow and obvious on purpose.
package enum ReferenceFilters {
    static let luma = SIMD3<Double>(0.2126, 0.7152, 0.0722)

    static func Y(_ v: SIMD4<Double>) -> Double { luma[0] * v[0] + luma[1] * v[1] + luma[2] * v[2] }

    package static func apply(_ id: FilterID, _ p: Params, _ inputs: [ReferenceImage], space: WorkingSpace) -> ReferenceImage {
        let image = inputs.first ?? ReferenceImage(width: 1, height: 1)
        func n(_ name: String) -> Double { p.number(name) }
        switch id {
        case .exposure:
            return straight(image) { v in rgb(v) { $0 * pow(2, n("ev")) } }
        case .colorControls:
            return straight(image) { v in
                let y = Y(v)
                return rgb(v) { c in n("contrast") * ((y + (c - y) * n("saturation")) - 0.5) + 0.5 + n("brightness") }
            }
        case .gamma:
            return straight(image) { v in rgb(v) { $0 >= 0 ? pow($0, n("power")) : -pow(-$0, n("power")) } }
        case .hueRotate:
            let t = n("degrees") * .pi / 180, c = cos(t), s = sin(t)
            let m: [[Double]] = [
                [0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928],
                [0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283],
                [0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072]]
            return straight(image) { v in matrix3(m, v) }
        case .vibrance:
            return straight(image) { v in
                let spread = min(max(max(v[0], v[1], v[2]) - min(v[0], v[1], v[2]), 0), 1)
                let k = 1 + n("amount") * (1 - spread), y = Y(v)
                return rgb(v) { y + ($0 - y) * k }
            }
        case .temperatureTint:
            let t = n("temperature") / 100, u = n("tint") / 100
            return straight(image) { v in SIMD4(v[0] * (1 + 0.3 * t), v[1] * (1 - 0.3 * u), v[2] * (1 - 0.3 * t), v[3]) }
        case .colorMatrix:
            let m = p.numbers("matrix")
            return straight(image) { v in
                var out = SIMD4<Double>()
                for r in 0..<4 { out[r] = m[r * 5 + 4] + (0..<4).reduce(0) { $0 + m[r * 5 + $1] * v[$1] } }
                return out
            }
        case .levels:
            return straight(image) { v in
                rgb(v) { c in
                    let t = min(max((c - n("inBlack")) / (n("inWhite") - n("inBlack")), 0), 1)
                    return n("outBlack") + (n("outWhite") - n("outBlack")) * pow(t, 1 / n("gamma"))
                }
            }
        case .curves:
            func curve(_ name: String) -> ((Double) -> Double)? {
                let points = p.points(name)
                guard points.count >= 2 else { return nil }
                let c = ToneCurve(points: points)
                return { c.exact($0) }
            }
            let master = curve("points"), channels = [curve("red"), curve("green"), curve("blue")]
            return straight(image) { v in
                var out = v
                for i in 0..<3 {
                    if let f = channels[i] { out[i] = f(out[i]) }
                    if let master { out[i] = master(out[i]) }
                }
                return out
            }
        case .invert:
            return straight(image) { v in rgb(v) { 1 - $0 } }
        case .grayscale:
            return straight(image) { v in let y = Y(v); return SIMD4(y, y, y, v[3]) }
        case .sepia:
            let s: [[Double]] = [[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]]
            let i = n("intensity")
            return straight(image) { v in
                let sep = matrix3(s, v)
                return SIMD4(v[0] + (sep[0] - v[0]) * i, v[1] + (sep[1] - v[1]) * i, v[2] + (sep[2] - v[2]) * i, v[3])
            }
        case .threshold:
            return straight(image) { v in let t: Double = Y(v) >= n("level") ? 1 : 0; return SIMD4(t, t, t, v[3]) }
        case .posterize:
            let levels = n("levels") - 1
            return straight(image) { v in rgb(v) { (min(max($0, 0), 1) * levels).rounded() / levels } }
        case .clamp:
            return straight(image) { v in
                SIMD4(min(max(v[0], n("min")), n("max")), min(max(v[1], n("min")), n("max")),
                      min(max(v[2], n("min")), n("max")), min(max(v[3], 0), 1))
            }
        case .opacity:
            return straight(image) { v in SIMD4(v[0], v[1], v[2], v[3] * n("amount")) }
        case .vignette:
            var out = image
            let cx = Double(image.width) / 2, cy = Double(image.height) / 2, half = (cx * cx + cy * cy).squareRoot()
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let d = ((Double(x) + 0.5 - cx) * (Double(x) + 0.5 - cx) + (Double(y) + 0.5 - cy) * (Double(y) + 0.5 - cy)).squareRoot() / half
                    let t = min(d / n("radius"), 1)
                    let f = 1 - n("intensity") * t * t
                    let v = image[x, y]
                    out[x, y] = SIMD4(v[0] * f, v[1] * f, v[2] * f, v[3])
                }
            }
            return out
        case .gaussianBlur:
            return gaussian(image, sigma: n("sigma"))
        case .boxBlur:
            let r = p.int("radius")
            return window(image, r) { values in values.reduce(.zero, +) / Double(values.count) }
        case .unsharpMask:
            // Straight colour against the straight colour of the premultiplied blur; alpha kept.
            let blurred = gaussian(image, sigma: n("sigma"))
            var out = image
            for i in 0..<image.pixels.count {
                let v = image.pixels[i], b = blurred.pixels[i], a = v[3]
                let c = a > 0 ? v / a : .zero
                var d = b[3] > 0 ? c - b / b[3] : .zero
                for k in 0..<3 where abs(d[k]) < n("threshold") { d[k] = 0 }
                var o = (c + d * n("amount")) * a
                o[3] = a
                out.pixels[i] = o
            }
            return n("sigma") == 0 || n("amount") == 0 ? image : out
        case .sharpen:
            var out = image
            let k: [Double] = [1, 2, 1]
            for y in 0..<image.height {
                for x in 0..<image.width {
                    var blurred = 0.0
                    for j in -1...1 { for i in -1...1 { blurred += k[i + 1] * k[j + 1] / 16 * Y(image.clamped(x + i, y + j)) } }
                    let d = n("amount") * (Y(image[x, y]) - blurred)
                    out[x, y] = image[x, y] + SIMD4(d, d, d, 0)
                }
            }
            return out
        case .convolve:
            var kernel = p.numbers("kernel")
            let sum = kernel.reduce(0, +)
            if p.bool("normalize") && sum != 0 { kernel = kernel.map { $0 / sum } }
            let size = Int(Double(kernel.count).squareRoot()), r = size / 2
            var out = image
            for y in 0..<image.height {
                for x in 0..<image.width {
                    // W3C feConvolveMatrix (as a correlation): preserveAlpha convolves unpremultiplied colour and
                    // keeps alpha; otherwise all premultiplied channels. Bias joins straight colour.
                    var acc = SIMD4<Double>()
                    for j in 0..<size {
                        for i in 0..<size {
                            let v = image.clamped(x + i - r, y + j - r)
                            acc += (p.bool("preserveAlpha") ? (v[3] > 0 ? v / v[3] : .zero) : v) * kernel[j * size + i]
                        }
                    }
                    if p.bool("preserveAlpha") {
                        let a = image[x, y][3]
                        acc = (acc + SIMD4(repeating: n("bias"))) * a
                        acc[3] = a
                    } else {
                        let a = acc[3]
                        acc += SIMD4(repeating: n("bias") * a)
                        acc[3] = a
                    }
                    out[x, y] = acc
                }
            }
            return out
        case .sobel:
            var out = image
            for y in 0..<image.height {
                for x in 0..<image.width {
                    func l(_ i: Int, _ j: Int) -> Double { Y(image.clamped(x + i, y + j)) }
                    let gx = l(1, -1) + 2 * l(1, 0) + l(1, 1) - l(-1, -1) - 2 * l(-1, 0) - l(-1, 1)
                    let gy = l(-1, 1) + 2 * l(0, 1) + l(1, 1) - l(-1, -1) - 2 * l(0, -1) - l(1, -1)
                    let m = (gx * gx + gy * gy).squareRoot() / 4
                    out[x, y] = SIMD4(m, m, m, 1)
                }
            }
            return out
        case .median:
            return window(image, p.int("radius")) { values in
                var out = SIMD4<Double>()
                for c in 0..<4 { out[c] = values.map { $0[c] }.sorted()[values.count / 2] }
                return out
            }
        case .motionBlur:
            let r = n("radius"), t = n("angle") * .pi / 180
            guard r > 0 else { return image }
            let d = SIMD2(r * cos(t), -r * sin(t)), count = 2 * Int(r.rounded(.up)) + 1
            return mapped(image.width, image.height) { x, y in
                let p = SIMD2(Double(x), Double(y))
                let samples = (0..<count).map { k in bilinear(image, p - d + d * (2 * Double(k) / Double(count - 1))) }
                return samples.reduce(SIMD4<Double>(), +) / Double(count)
            }
        case .zoomBlur:
            guard n("amount") > 0 else { return image }
            let (w, h) = (Double(image.width), Double(image.height))
            let c = SIMD2(n("centerX") * w - 0.5, n("centerY") * h - 0.5)
            let s = min(1, n("amount") / ((w * w + h * h).squareRoot() / 2))
            return mapped(image.width, image.height) { x, y in
                let p = SIMD2(Double(x), Double(y)), u = p - c
                let count = 1 + Int((s * (u * u).sum().squareRoot()).rounded(.up))
                guard count > 1 else { return image[x, y] }
                let samples = (0..<count).map { k in bilinear(image, p - u * (s * Double(k) / Double(count - 1))) }
                return samples.reduce(SIMD4<Double>(), +) / Double(count)
            }
        case .noiseReduction:
            func step(_ id: FilterID, _ params: [String: ParamValue], _ images: [ReferenceImage]) -> ReferenceImage {
                apply(id, Recipe.Node(id: "s", op: id, inputs: [], params: params).params, images, space: space)
            }
            var result = image
            if n("color") > 0 {
                result = step(.blend, ["mode": "luminosity"], [result, gaussian(result, sigma: 4 * n("color"))])
            }
            if n("luminance") > 0 {
                result = bilateral(result, 1 + n("luminance"), 0.02 + 0.08 * n("luminance"), axes: [(1, 1)])
            }
            if n("sharpness") > 0 { result = step(.sharpen, ["amount": .number(n("sharpness"))], [result]) }
            return result
        case .highlightsShadows:
            guard n("shadows") > 0 || n("highlights") > 0 else { return image }
            return localTone(image, radius: n("radius"), shadows: n("shadows"), highlights: n("highlights"), detail: 0, space: space)
        case .localContrast:
            guard n("amount") != 0 else { return image }
            return localTone(image, radius: n("radius"), shadows: 0, highlights: 0, detail: n("amount"), space: space)
        case .bilateral:
            let (ss, sr) = (n("sigmaSpatial"), n("sigmaRange"))
            guard p.string("method") == "separable" else { return bilateral(image, ss, sr, axes: [(1, 1)]) }
            return bilateral(bilateral(image, ss, sr, axes: [(1, 0)]), ss, sr, axes: [(0, 1)])
        case .dilate, .erode:
            return morphology(image, radius: p.int("radius"), disc: p.string("shape") == "disc", dilate: id == .dilate)
        case .resize:
            return resize(image, p, space: space)
        case .trim:
            return trim(image, p, space: space)
        case .lut:
            return lut(image, p, space: space)
        case .monochrome:
            let c = p.color("color"), t = n("intensity")
            let tint = [c.r, c.g, c.b].map { space == .linear ? SRGB.toLinear($0) : $0 }
            return straight(image) { v in
                let y = Y(v)
                return SIMD4((1 - t) * v[0] + t * y * tint[0], (1 - t) * v[1] + t * y * tint[1], (1 - t) * v[2] + t * y * tint[2], v[3])
            }
        case .autoLevels:
            return autoLevels(image, p, space: space)
        case .whitePoint:
            return whitePoint(image, p, space: space)
        case .crop:
            let x0 = p.int("x"), y0 = p.int("y")
            let w = p.int("width") == 0 ? image.width - x0 : p.int("width")
            let h = p.int("height") == 0 ? image.height - y0 : p.int("height")
            return mapped(w, h) { x, y in image[x + x0, y + y0] }
        case .flip:
            return p.string("direction") == "horizontal"
                ? mapped(image.width, image.height) { x, y in image[image.width - 1 - x, y] }
                : mapped(image.width, image.height) { x, y in image[x, image.height - 1 - y] }
        case .straighten:
            let turn: [String: ParamValue] = ["degrees": .number(n("degrees")), "canvas": "inside", "kernel": .string(p.string("kernel"))]
            return apply(.rotate, Recipe.Node(id: "r", op: .rotate, inputs: [], params: turn).params, inputs, space: space)
        case .rotate:
            let w = image.width, h = image.height, degrees = n("degrees")
            let t = degrees * .pi / 180
            let quarter = (degrees / 90).rounded() * 90 == degrees
            let fit = p.string("canvas") == "fit" || (p.string("canvas") == "inside" && quarter)
            var outW = fit ? Int(ceil(Double(w) * abs(cos(t)) + Double(h) * abs(sin(t)) - 1e-6)) : w
            var outH = fit ? Int(ceil(Double(w) * abs(sin(t)) + Double(h) * abs(cos(t)) - 1e-6)) : h
            if p.string("canvas") == "inside" && !quarter {
                // Largest centred w:h rectangle whose corners, turned back, lie the kernel's radius inside the input.
                let r: Double = ["nearest": 0, "bilinear": 1, "bicubic": 2, "lanczos3": 3][p.string("kernel")]!
                var s = 1.0
                for (cx, cy) in [(1.0, 1.0), (1.0, -1.0)] {
                    let x = Double(w) / 2 * cx, y = Double(h) / 2 * cy  // a corner of the unscaled output
                    let bx = abs(x * cos(t) + y * sin(t)), by = abs(-x * sin(t) + y * cos(t))
                    s = min(s, (Double(w) / 2 - r) / bx, (Double(h) / 2 - r) / by)
                }
                // An image too small to hold any such rectangle gives one pixel (the catalogue's floor).
                outW = max(1, Int(floor(max(0, s) * Double(w) + 1e-6)))
                outH = max(1, Int(floor(max(0, s) * Double(h) + 1e-6)))
            }
            let turns = ((Int((degrees / 90).rounded()) % 4) + 4) % 4
            if (degrees / 90).rounded() * 90 == degrees, (turns % 2 == 0 ? (w, h) : (h, w)) == (outW, outH) {
                switch turns {  // exact moves of pixels
                case 0: return image
                case 1: return mapped(h, w) { x, y in image[y, h - 1 - x] }
                case 2: return mapped(w, h) { x, y in image[w - 1 - x, h - 1 - y] }
                default: return mapped(h, w) { x, y in image[w - 1 - y, x] }
                }
            }
            // Forward: translate the input centre to the origin, rotate clockwise (y down), move to the output centre.
            let forward = [cos(t), -sin(t), Double(outW) / 2 - (cos(t) * Double(w) / 2 - sin(t) * Double(h) / 2),
                           sin(t), cos(t), Double(outH) / 2 - (sin(t) * Double(w) / 2 + cos(t) * Double(h) / 2)]
            return warp(image, forward: forward, width: outW, height: outH, p: p, space: space)
        case .affine:
            return warp(image, forward: p.numbers("matrix"), width: p.int("width") == 0 ? image.width : p.int("width"),
                        height: p.int("height") == 0 ? image.height : p.int("height"), p: p, space: space)
        case .perspective:
            let corners = p.numbers("corners")
            if corners.isEmpty {
                return projective(image, outputToInput: inverse3(p.numbers("matrix")),
                                  width: p.int("width") == 0 ? image.width : p.int("width"),
                                  height: p.int("height") == 0 ? image.height : p.int("height"), p: p, space: space)
            }
            func side(_ j: Int, _ k: Int) -> Double {
                hypot(corners[2 * j] - corners[2 * k], corners[2 * j + 1] - corners[2 * k + 1])
            }
            let outW = p.int("width") == 0 ? max(1, Int(((side(0, 1) + side(3, 2)) / 2).rounded())) : p.int("width")
            let outH = p.int("height") == 0 ? max(1, Int(((side(0, 3) + side(1, 2)) / 2).rounded())) : p.int("height")
            let (w, h) = (Double(outW), Double(outH))
            return projective(image, outputToInput: homography(from: [0, 0, w, 0, w, h, 0, h], to: corners),
                              width: outW, height: outH, p: p, space: space)
        case .text:
            let w = p.int("width") == 0 ? image.width : p.int("width"), h = p.int("height") == 0 ? image.height : p.int("height")
            return TextReference.render(p, width: w, height: h, space: space)
        case .transpose:
            return mapped(image.height, image.width) { x, y in image[y, x] }
        case .pad:
            let top = p.int("top"), left = p.int("left")
            let fill = p.color("color").working(space)
            let colour = SIMD4<Double>(Double(fill[0]), Double(fill[1]), Double(fill[2]), Double(fill[3]))
            return mapped(image.width + left + p.int("right"), image.height + top + p.int("bottom")) { x, y in
                let sx = x - left, sy = y - top
                return sx >= 0 && sy >= 0 && sx < image.width && sy < image.height ? image[sx, sy] : colour
            }
        case .blend:
            let source = inputs[0], backdrop = inputs[1], opacity = n("opacity")
            return mapped(backdrop.width, backdrop.height) { x, y in
                let b = backdrop[x, y]
                guard x < source.width, y < source.height else { return b }
                return compositeReference(p.string("mode"), source[x, y] * opacity, b)
            }
        case .over:
            // The source scaled to relativeWidth × the backdrop's width (aspect kept), its top-left corner at
            // (x0, y0): the margin from the edges it sits against, centred on an axis with neither.
            let backdrop = inputs[1], opacity = n("opacity")
            var source = inputs[0]
            if n("relativeWidth") > 0 {
                let width = max(1, Int((n("relativeWidth") * Double(backdrop.width)).rounded()))
                let height = max(1, Int((Double(source.height) * Double(width) / Double(source.width)).rounded()))
                source = resample(source, width, height, kernel: "lanczos3")
            }
            let position = p.string("position")
            let margin = Int((n("margin") * Double(min(backdrop.width, backdrop.height))).rounded())
            func origin(_ free: Int, start: Bool, end: Bool) -> Int {
                start ? margin : end ? free - margin : (free >= 0 ? free / 2 : -((-free) / 2))
            }
            let x0 = origin(backdrop.width - source.width, start: position.hasSuffix("west"), end: position.hasSuffix("east"))
            let y0 = origin(backdrop.height - source.height, start: position.hasPrefix("north"), end: position.hasPrefix("south"))
            return mapped(backdrop.width, backdrop.height) { x, y in
                let b = backdrop[x, y], sx = x - x0, sy = y - y0
                guard sx >= 0, sy >= 0, sx < source.width, sy < source.height else { return b }
                return compositeReference("normal", source[sx, sy] * opacity, b)
            }
        case .blendWithMask:
            let fg = inputs[0], bg = inputs[1], mask = inputs[2]
            return mapped(bg.width, bg.height) { x, y in
                let f = x < fg.width && y < fg.height ? fg[x, y] : .zero
                let m = x < mask.width && y < mask.height ? min(max(Y(mask[x, y]), 0), 1) : 0
                return bg[x, y] + (f - bg[x, y]) * m
            }
        case .setAlpha:
            // αo = αs × m, colour kept: m = the mask's sRGB-encoded straight luminance × its alpha.
            let source = inputs[0], mask = inputs[1]
            return mapped(source.width, source.height) { x, y in
                guard x < mask.width, y < mask.height else { return .zero }
                let v = mask[x, y], a = v[3]
                let straight = a > 0 ? min(max(Y(v) / a, 0), 1) : 0
                let m = min(max((space == .linear ? SRGB.toEncoded(straight) : straight) * a, 0), 1)
                return source[x, y] * m
            }
        case .solidColor, .linearGradient, .radialGradient, .checkerboard:
            return generate(id, p, size: (p.int("width") == 0 ? image.width : p.int("width"),
                                          p.int("height") == 0 ? image.height : p.int("height")), space: space)
        }
    }

    // MARK: helpers

    static func working(_ c: RGBA, _ space: WorkingSpace) -> SIMD4<Double> {
        let f: (Double) -> Double = space == .linear ? SRGB.toLinear : { $0 }
        return SIMD4(f(c.r) * c.a, f(c.g) * c.a, f(c.b) * c.a, c.a)
    }

    static func rgb(_ v: SIMD4<Double>, _ f: (Double) -> Double) -> SIMD4<Double> { SIMD4(f(v[0]), f(v[1]), f(v[2]), v[3]) }

    static func matrix3(_ m: [[Double]], _ v: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4((0..<3).reduce(0) { $0 + m[0][$1] * v[$1] }, (0..<3).reduce(0) { $0 + m[1][$1] * v[$1] },
              (0..<3).reduce(0) { $0 + m[2][$1] * v[$1] }, v[3])
    }

    /// Applies `f` to straight colour: unpremultiply, f, premultiply.
    static func straight(_ image: ReferenceImage, _ f: (SIMD4<Double>) -> SIMD4<Double>) -> ReferenceImage {
        var out = image
        for i in 0..<image.pixels.count {
            let v = image.pixels[i], a = v[3]
            var s = a != 0 ? v / a : .zero
            s[3] = a
            var r = f(s)
            let ra = r[3]
            r *= ra
            r[3] = ra
            out.pixels[i] = r
        }
        return out
    }

    static func mapped(_ w: Int, _ h: Int, _ f: (Int, Int) -> SIMD4<Double>) -> ReferenceImage {
        var out = ReferenceImage(width: w, height: h)
        for y in 0..<h { for x in 0..<w { out[x, y] = f(x, y) } }
        return out
    }

    static func window(_ image: ReferenceImage, _ r: Int, _ f: ([SIMD4<Double>]) -> SIMD4<Double>) -> ReferenceImage {
        guard r > 0 else { return image }
        return mapped(image.width, image.height) { x, y in
            var values = [SIMD4<Double>]()
            for j in -r...r { for i in -r...r { values.append(image.clamped(x + i, y + j)) } }
            return f(values)
        }
    }

    /// Local tone from its formula: ℓ = sRGB-encode(Y) of straight colour (linear Y), the base b = ℓ shrunk by
    /// f = max(1, ⌊radius/4⌋) with bilinear resize, bilateral-smoothed along x then y (σs = radius/f, σr = 0.1) and
    /// enlarged back; b₁ = b + s·(27/16)·b(1 − b)², b₂ = b₁ − h·(27/16)·b₁²(1 − b₁), ℓ' = b₂ + (1 + detail)(ℓ − b);
    /// colour scaled by Y'/Y.
    static func localTone(_ image: ReferenceImage, radius: Double, shadows: Double, highlights: Double, detail: Double,
                          space: WorkingSpace) -> ReferenceImage {
        func linear(_ c: Double) -> Double { space == .linear ? c : SRGB.toLinear(c) }
        func working(_ c: Double) -> Double { space == .linear ? c : SRGB.toEncoded(max(0, min(1, c))) }
        func lightness(_ v: SIMD4<Double>) -> Double {
            let c = v[3] > 0 ? v / v[3] : .zero
            let y = 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2])
            return SRGB.toEncoded(max(0, min(1, y)))
        }
        let grey = mapped(image.width, image.height) { x, y in
            let v = image[x, y], l = lightness(v)
            return SIMD4(l * v[3], l * v[3], l * v[3], v[3])
        }
        func resized(_ i: ReferenceImage, _ w: Int, _ h: Int) -> ReferenceImage {
            resize(i, Recipe.Node(id: "r", op: .resize, inputs: [],
                                  params: ["width": .number(Double(w)), "height": .number(Double(h)), "kernel": "bilinear"]).params,
                   space: space)
        }
        let f = max(1, Int(radius / 4)), (w, h) = (image.width, image.height)
        var base = resized(grey, max(1, (w + f / 2) / f), max(1, (h + f / 2) / f))
        let sigma = radius / Double(f)
        base = bilateral(bilateral(base, sigma, 0.1, axes: [(1, 0)]), sigma, 0.1, axes: [(0, 1)])
        base = resized(base, w, h)
        return mapped(w, h) { x, y in
            let v = image[x, y], alpha = v[3]
            let c = alpha > 0 ? v / alpha : .zero
            let lin = SIMD3(linear(c[0]), linear(c[1]), linear(c[2]))
            let Y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
            let l = SRGB.toEncoded(max(0, min(1, Y)))
            let bv = base[x, y], b = max(0, min(1, bv[3] > 0 ? bv[0] / bv[3] : bv[0]))
            let k = 27.0 / 16
            let b1 = b + shadows * k * b * (1 - b) * (1 - b)
            let b2 = b1 - highlights * k * b1 * b1 * (1 - b1)
            let target = SRGB.toLinear(max(0, b2 + (1 + detail) * (l - b)))
            let out = Y > 0 ? lin * (target / Y) : SIMD3(repeating: target)
            return SIMD4(working(out[0]) * alpha, working(out[1]) * alpha, working(out[2]) * alpha, alpha)
        }
    }

    /// Tomasi & Manduchi's bilateral filter over offsets within r = ⌈2σs⌉ (a disc for axes (1, 1), a row for (1, 0),
    /// a column for (0, 1)): w = exp(−|o|²/2σs²)·exp(−‖v(q) − v(p)‖²/2σr²) over premultiplied RGBA, offsets outside
    /// the image left out.
    static func bilateral(_ image: ReferenceImage, _ ss: Double, _ sr: Double, axes: [(Int, Int)]) -> ReferenceImage {
        let r = max(1, Int((2 * ss).rounded(.up))), (ax, ay) = axes[0]
        return mapped(image.width, image.height) { x, y in
            let centre = image[x, y]
            var sum = SIMD4<Double>(), norm = 0.0
            for j in (-r * ay)...(r * ay) {
                for i in (-r * ax)...(r * ax) where i * i + j * j <= r * r {
                    let (u, v) = (x + i, y + j)
                    guard u >= 0, u < image.width, v >= 0, v < image.height else { continue }
                    let value = image[u, v], d = value - centre
                    let w = exp(-Double(i * i + j * j) / (2 * ss * ss)) * exp(-(d * d).sum() / (2 * sr * sr))
                    sum += value * w
                    norm += w
                }
            }
            return sum / norm
        }
    }

    /// The bilinear sample at q in pixel indices (pixel i's centre at i), its four taps clamped to the image.
    static func bilinear(_ image: ReferenceImage, _ q: SIMD2<Double>) -> SIMD4<Double> {
        let f = SIMD2(q.x.rounded(.down), q.y.rounded(.down)), t = q - f
        let (x, y) = (Int(f.x), Int(f.y))
        let upper = image.clamped(x, y) * (1 - t.x) + image.clamped(x + 1, y) * t.x
        let lower = image.clamped(x, y + 1) * (1 - t.x) + image.clamped(x + 1, y + 1) * t.x
        return upper * (1 - t.y) + lower * t.y
    }

    /// Grey-level dilation (maximum) or erosion (minimum) with a flat element, per premultiplied channel (Gonzalez &
    /// Woods 9.6): the element is every offset with |i|, |j| ≤ r, or for the disc i² + j² ≤ r²; offsets that fall
    /// outside the image are not part of the window.
    static func morphology(_ image: ReferenceImage, radius r: Int, disc: Bool, dilate: Bool) -> ReferenceImage {
        mapped(image.width, image.height) { x, y in
            var out = SIMD4<Double>(repeating: dilate ? -.infinity : .infinity)
            for j in -r...r {
                for i in -r...r where !disc || i * i + j * j <= r * r {
                    let (u, v) = (x + i, y + j)
                    guard u >= 0, u < image.width, v >= 0, v < image.height else { continue }
                    let value = image[u, v]
                    for c in 0..<4 { out[c] = dilate ? max(out[c], value[c]) : min(out[c], value[c]) }
                }
            }
            return out
        }
    }

    static func gaussian(_ image: ReferenceImage, sigma: Double) -> ReferenceImage {
        guard sigma > 0 else { return image }
        let r = max(1, Int(ceil(3 * sigma)))
        var k = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = k.reduce(0, +)
        k = k.map { $0 / sum }
        let horizontal = mapped(image.width, image.height) { x, y in
            (-r...r).reduce(SIMD4<Double>()) { $0 + image.clamped(x + $1, y) * k[$1 + r] }
        }
        return mapped(image.width, image.height) { x, y in
            (-r...r).reduce(SIMD4<Double>()) { $0 + horizontal.clamped(x, y + $1) * k[$1 + r] }
        }
    }

    /// out(p) = Σᵢⱼ k((i + ½ − qx)/sx)·k((j + ½ − qy)/sy)·in(i, j) / Σ k·k with q = M⁻¹(p + ½), M the forward
    /// (input → output) matrix on corner-origin coordinates; in(i, j) outside the image is the background; the
    /// kernel widens by sx, sy ≥ 1, the input distance one output step spans along each input axis.
    static func warp(_ image: ReferenceImage, forward m: [Double], width: Int, height: Int, p: Params,
                     space: WorkingSpace) -> ReferenceImage {
        let det = m[0] * m[4] - m[1] * m[3]
        let inv = [m[4] / det, -m[1] / det, -m[3] / det, m[0] / det]
        let sx = max(1, (inv[0] * inv[0] + inv[1] * inv[1]).squareRoot())
        let sy = max(1, (inv[2] * inv[2] + inv[3] * inv[3]).squareRoot())
        return resampled(image, width: width, height: height, p: p, space: space) { x, y in
            let ox = x - m[2], oy = y - m[5]
            return (inv[0] * ox + inv[1] * oy, inv[2] * ox + inv[3] * oy, sx, sy)
        }
    }

    /// A projective warp from its definition: the output → input homography `hInv` (row-major 3×3) taken at each
    /// pixel centre, background where its denominator is ≤ 0; the kernel widened along each input axis by the
    /// length of the map's Jacobian row, measured by central differences, from 1 to 16.
    static func projective(_ image: ReferenceImage, outputToInput hInv: [Double], width: Int, height: Int, p: Params,
                           space: WorkingSpace) -> ReferenceImage {
        var m = hInv
        // A homography and its negation are one map; the view is the side where the centre's denominator is > 0.
        if m[6] * Double(width) / 2 + m[7] * Double(height) / 2 + m[8] < 0 { m = m.map { -$0 } }
        func at(_ x: Double, _ y: Double) -> (Double, Double)? {
            let w = m[6] * x + m[7] * y + m[8]
            guard w > 0 else { return nil }
            return ((m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w)
        }
        return resampled(image, width: width, height: height, p: p, space: space) { x, y in
            guard let q = at(x, y), let right = at(x + 1e-4, y), let left = at(x - 1e-4, y),
                  let down = at(x, y + 1e-4), let up = at(x, y - 1e-4) else { return nil }
            let dxdx = (right.0 - left.0) / 2e-4, dxdy = (down.0 - up.0) / 2e-4
            let dydx = (right.1 - left.1) / 2e-4, dydy = (down.1 - up.1) / 2e-4
            return (q.0, q.1, min(16, max(1, (dxdx * dxdx + dxdy * dxdy).squareRoot())),
                    min(16, max(1, (dydx * dydx + dydy * dydy).squareRoot())))
        }
    }

    /// The homography taking four points `from` onto four points `to` (x, y each), solved as the 8×8 linear system
    /// of the direct linear transform with h₃₃ = 1 (Hartley & Zisserman §4.1), by Gaussian elimination.
    package static func homography(from: [Double], to: [Double]) -> [Double] {
        var a = [[Double]]()
        for k in 0..<4 {
            let (x, y, u, v) = (from[2 * k], from[2 * k + 1], to[2 * k], to[2 * k + 1])
            a.append([x, y, 1, 0, 0, 0, -u * x, -u * y, u])
            a.append([0, 0, 0, x, y, 1, -v * x, -v * y, v])
        }
        return solve(a) + [1]
    }

    /// The inverse of a 3×3 matrix by Gauss–Jordan elimination with partial pivoting.
    static func inverse3(_ m: [Double]) -> [Double] {
        var columns = [[Double]]()
        for k in 0..<3 {
            let rows = (0..<3).map { r in [m[3 * r], m[3 * r + 1], m[3 * r + 2], r == k ? 1.0 : 0.0] }
            columns.append(solve(rows))
        }
        return (0..<3).flatMap { r in (0..<3).map { c in columns[c][r] } }
    }

    /// Solves the augmented system `a` (n rows of n coefficients and the right-hand side).
    static func solve(_ system: [[Double]]) -> [Double] {
        var a = system
        let n = a.count
        for c in 0..<n {
            let pivot = (c..<n).max { abs(a[$0][c]) < abs(a[$1][c]) }!
            a.swapAt(c, pivot)
            for r in 0..<n where r != c {
                let f = a[r][c] / a[c][c]
                for k in c...n { a[r][k] -= f * a[c][k] }
            }
        }
        return (0..<n).map { a[$0][n] / a[$0][$0] }
    }

    /// Each output pixel sampled at `map`(its centre) = (x, y, kernel scale on x, on y), or background where nil:
    /// the 2D kernel widened by the scales, taps outside the input reading background.
    static func resampled(_ image: ReferenceImage, width: Int, height: Int, p: Params, space: WorkingSpace,
                          map: (Double, Double) -> (Double, Double, Double, Double)?) -> ReferenceImage {
        let kernel = p.string("kernel")
        let background = working(p.color("background"), space)
        let radius: Double = ["nearest": 0.5, "bilinear": 1, "bicubic": 2, "lanczos3": 3][kernel]!
        func sample(_ i: Int, _ j: Int) -> SIMD4<Double> {
            i >= 0 && j >= 0 && i < image.width && j < image.height ? image[i, j] : background
        }
        return mapped(width, height) { x, y in
            guard let (qx, qy, sx, sy) = map(Double(x) + 0.5, Double(y) + 0.5),
                  abs(qx) < 1e9, abs(qy) < 1e9 else { return background }
            if kernel == "nearest" { return sample(Int(floor(qx)), Int(floor(qy))) }
            var sum = SIMD4<Double>(), total = 0.0
            for j in Int(floor(qy - radius * sy - 1))...Int(ceil(qy + radius * sy + 1)) {
                let wy = kernelValue(kernel, (Double(j) + 0.5 - qy) / sy)
                if wy == 0 { continue }
                for i in Int(floor(qx - radius * sx - 1))...Int(ceil(qx + radius * sx + 1)) {
                    let wx = kernelValue(kernel, (Double(i) + 0.5 - qx) / sx)
                    sum += sample(i, j) * (wx * wy)
                    total += wx * wy
                }
            }
            return total != 0 ? sum / total : background
        }
    }

    static func kernelValue(_ kernel: String, _ x: Double) -> Double {
        let x = abs(x)
        switch kernel {
        case "nearest": return x < 0.5 ? 1 : 0
        case "bilinear": return max(0, 1 - x)
        case "bicubic":
            if x < 1 { return 1.5 * x * x * x - 2.5 * x * x + 1 }
            if x < 2 { return -0.5 * x * x * x + 2.5 * x * x - 4 * x + 2 }
            return 0
        default:
            if x == 0 { return 1 }
            if x >= 3 { return 0 }
            return 3 * sin(.pi * x) * sin(.pi * x / 3) / (.pi * .pi * x * x)
        }
    }

    /// sharp's resize: the factor per axis is target ÷ input, the larger of the two for cover and outside, the
    /// smaller for contain and inside, each its own for fill; withoutEnlargement caps it at 1; cover crops to the
    /// box, contain places the image on a box of background; compass positions take none, half (rounded down) or
    /// all of the excess.
    static func resize(_ image: ReferenceImage, _ p: Params, space: WorkingSpace) -> ReferenceImage {
        let W = Double(image.width), H = Double(image.height)
        let tw = p.int("width"), th = p.int("height"), fit = p.string("fit")
        var fx: Double, fy: Double
        if p.number("scale") > 0 { fx = p.number("scale"); fy = fx }
        else if tw > 0 && th > 0 {
            fx = Double(tw) / W; fy = Double(th) / H
            if fit == "cover" || fit == "outside" { fx = max(fx, fy); fy = fx }
            if fit == "contain" || fit == "inside" { fx = min(fx, fy); fy = fx }
        } else if tw > 0 { fx = Double(tw) / W; fy = fx }
        else { fy = Double(th) / H; fx = fy }
        if p.bool("withoutEnlargement") { fx = min(fx, 1); fy = min(fy, 1) }
        let sw = max(1, Int((W * fx).rounded())), sh = max(1, Int((H * fy).rounded()))
        let scaled = resample(image, sw, sh, kernel: p.string("kernel"))
        guard tw > 0, th > 0, fit == "cover" || fit == "contain" else { return scaled }
        let position = p.string("position")
        func offset(_ excess: Int, start: Bool, end: Bool) -> Int { start ? 0 : end ? excess : excess / 2 }
        if fit == "cover" {
            let w = min(tw, sw), h = min(th, sh)
            let x0 = offset(sw - w, start: position.hasSuffix("west"), end: position.hasSuffix("east"))
            let y0 = offset(sh - h, start: position.hasPrefix("north"), end: position.hasPrefix("south"))
            return mapped(w, h) { x, y in scaled[x + x0, y + y0] }
        }
        let w = max(tw, sw), h = max(th, sh)
        let x0 = offset(w - sw, start: position.hasSuffix("west"), end: position.hasSuffix("east"))
        let y0 = offset(h - sh, start: position.hasPrefix("north"), end: position.hasPrefix("south"))
        let fill = working(p.color("background"), space)
        return mapped(w, h) { x, y in
            let sx = x - x0, sy = y - y0
            return sx >= 0 && sy >= 0 && sx < sw && sy < sh ? scaled[sx, sy] : fill
        }
    }

    package static func resample(_ image: ReferenceImage, _ w: Int, _ h: Int, kernel: String) -> ReferenceImage {
        let radius: Double = ["nearest": 0.5, "bilinear": 1, "bicubic": 2, "lanczos3": 3][kernel]!
        func sample1D(_ inSize: Int, _ outSize: Int, _ i: Int) -> [(Int, Double)] {
            let ratio = Double(inSize) / Double(outSize)
            let centre = (Double(i) + 0.5) * ratio - 0.5
            if kernel == "nearest" { return [(min(inSize - 1, Int((Double(i) + 0.5) * ratio)), 1)] }
            let scale = max(1, ratio)
            var taps = [(Int, Double)]()
            for j in Int(floor(centre - radius * scale))...Int(ceil(centre + radius * scale)) {
                let weight = kernelValue(kernel, (Double(j) - centre) / scale)
                if weight != 0 { taps.append((min(max(j, 0), inSize - 1), weight)) }
            }
            let sum = taps.reduce(0) { $0 + $1.1 }
            return taps.map { ($0.0, $0.1 / sum) }
        }
        var current = image
        if w != image.width {
            let src = current
            current = mapped(w, src.height) { x, y in
                sample1D(src.width, w, x).reduce(SIMD4<Double>()) { $0 + src[$1.0, y] * $1.1 }
            }
        }
        if h != image.height {
            let src = current
            current = mapped(w, h) { x, y in
                sample1D(src.height, h, y).reduce(SIMD4<Double>()) { $0 + src[x, $1.0] * $1.1 }
            }
        }
        return current
    }

    static func compositeReference(_ mode: String, _ s: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
        let aS = s[3], aB = b[3]
        let cs = aS > 0 ? s / aS : .zero, cb = aB > 0 ? b / aB : .zero
        var blended = SIMD4<Double>()
        // Non-separable modes (W3C Compositing §9.2): Lum, ClipColor, SetLum, Sat, SetSat as the spec writes them.
        func lumOf(_ c: SIMD4<Double>) -> Double { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }
        func clipColor(_ c: SIMD4<Double>) -> SIMD4<Double> {
            let l = lumOf(c), n = min(c[0], c[1], c[2]), x = max(c[0], c[1], c[2])
            var c = c
            if n < 0 { c = SIMD4(repeating: l) + (c - SIMD4(repeating: l)) * l / (l - n) }
            if x > 1 { c = SIMD4(repeating: l) + (c - SIMD4(repeating: l)) * (1 - l) / (x - l) }
            return c
        }
        func setLum(_ c: SIMD4<Double>, _ l: Double) -> SIMD4<Double> { clipColor(c + SIMD4(repeating: l - lumOf(c))) }
        func satOf(_ c: SIMD4<Double>) -> Double { max(c[0], c[1], c[2]) - min(c[0], c[1], c[2]) }
        func setSat(_ c: SIMD4<Double>, _ s: Double) -> SIMD4<Double> {
            // Sort the channels, set max to s, mid proportionally and min to 0.
            let order = [0, 1, 2].sorted { c[$0] < c[$1] }
            let (lo, mid, hi) = (order[0], order[1], order[2])
            var out = SIMD4<Double>()
            if c[hi] > c[lo] {
                out[mid] = (c[mid] - c[lo]) * s / (c[hi] - c[lo])
                out[hi] = s
            }
            return out
        }
        switch mode {
        case "hue": blended = setLum(setSat(cs, satOf(cb)), lumOf(cb))
        case "saturation": blended = setLum(setSat(cb, satOf(cs)), lumOf(cb))
        case "color": blended = setLum(cs, lumOf(cb))
        case "luminosity": blended = setLum(cb, lumOf(cs))
        default: break
        }
        for c in 0..<3 where !["hue", "saturation", "color", "luminosity"].contains(mode) {
            let x = cb[c], y = cs[c]
            func hardLight(_ b: Double, _ s: Double) -> Double { s <= 0.5 ? b * 2 * s : b + (2 * s - 1) - b * (2 * s - 1) }
            switch mode {
            case "normal": blended[c] = y
            case "multiply": blended[c] = x * y
            case "screen": blended[c] = x + y - x * y
            case "overlay": blended[c] = hardLight(y, x)
            case "hardLight": blended[c] = hardLight(x, y)
            case "softLight":
                if y <= 0.5 { blended[c] = x - (1 - 2 * y) * x * (1 - x) }
                else {
                    let d = x <= 0.25 ? ((16 * x - 12) * x + 4) * x : x.squareRoot()
                    blended[c] = x + (2 * y - 1) * (d - x)
                }
            case "darken": blended[c] = min(x, y)
            case "lighten": blended[c] = max(x, y)
            case "difference": blended[c] = abs(x - y)
            case "exclusion": blended[c] = x + y - 2 * x * y
            case "colorDodge": blended[c] = x == 0 ? 0 : (y == 1 ? 1 : min(1, x / (1 - y)))
            case "colorBurn": blended[c] = x == 1 ? 1 : (y == 0 ? 0 : 1 - min(1, (1 - x) / y))
            case "add": blended[c] = min(x + y, 1)
            default: blended[c] = max(x - y, 0)
            }
        }
        var out = s * (1 - aB) + b * (1 - aS) + blended * (aS * aB)
        out[3] = aS + aB * (1 - aS)
        return out
    }

    static func generate(_ id: FilterID, _ p: Params, size: (Int, Int), space: WorkingSpace) -> ReferenceImage {
        let (w, h) = size
        switch id {
        case .solidColor:
            let c = working(p.color("color"), space)
            return mapped(w, h) { _, _ in c }
        case .linearGradient:
            let a = working(p.color("from"), space), b = working(p.color("to"), space)
            let dx = (p.number("x1") - p.number("x0")) * Double(w), dy = (p.number("y1") - p.number("y0")) * Double(h)
            return mapped(w, h) { x, y in
                let px = Double(x) + 0.5 - p.number("x0") * Double(w), py = Double(y) + 0.5 - p.number("y0") * Double(h)
                let l2 = dx * dx + dy * dy
                let t = l2 > 0 ? min(max((px * dx + py * dy) / l2, 0), 1) : 0
                return a + (b - a) * t
            }
        case .radialGradient:
            let a = working(p.color("from"), space), b = working(p.color("to"), space)
            let half = Double(w * w + h * h).squareRoot() / 2
            return mapped(w, h) { x, y in
                let px = Double(x) + 0.5 - p.number("cx") * Double(w), py = Double(y) + 0.5 - p.number("cy") * Double(h)
                let t = min((px * px + py * py).squareRoot() / (p.number("radius") * half), 1)
                return a + (b - a) * t
            }
        default:
            let a = working(p.color("first"), space), b = working(p.color("second"), space)
            let s = p.int("size")
            return mapped(w, h) { x, y in ((x / s) + (y / s)) % 2 == 0 ? a : b }
        }
    }

    /// libvips find_trim / sharp trim: the 3×3 median (per premultiplied channel, edges replicated), as 8-bit
    /// sRGB-encoded straight colour, premultiplied by alpha again; the box of pixels with a channel more than
    /// threshold codes from the background (the top-left pixel, or the given colour); the whole image if none.
    static func trim(_ image: ReferenceImage, _ p: Params, space: WorkingSpace) -> ReferenceImage {
        let median = window(image, 1) { values in
            var out = SIMD4<Double>()
            for c in 0..<4 { out[c] = values.map { $0[c] }.sorted()[values.count / 2] }
            return out
        }
        func codes(_ v: SIMD4<Double>) -> SIMD4<Double> {
            let a = min(max(v[3], 0), 1)
            var out = SIMD4<Double>(0, 0, 0, (a * 255).rounded())
            for c in 0..<3 {
                let straight = a > 0 ? min(max(v[c] / a, 0), 1) : 0
                let encoded = space == .linear ? (straight <= 0.0031308 ? 12.92 * straight : 1.055 * pow(straight, 1 / 2.4) - 0.055) : straight
                out[c] = (encoded * 255).rounded() * out[3] / 255
            }
            return out
        }
        let background: SIMD4<Double>
        if p.bool("autoBackground") { background = codes(median[0, 0]) } else {
            let c = p.color("background")
            background = SIMD4(c.r * c.a * 255, c.g * c.a * 255, c.b * c.a * 255, c.a * 255)
        }
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<image.height {
            for x in 0..<image.width {
                let d = codes(median[x, y]) - background
                if max(abs(d[0]), abs(d[1]), abs(d[2]), abs(d[3])) > p.number("threshold") {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        guard maxX >= 0 else { return image }
        return mapped(maxX - minX + 1, maxY - minY + 1) { x, y in image[x + minX, y + minY] }
    }

    /// Adobe Cube LUT Specification 1.0: entries red-fastest over [DOMAIN_MIN, DOMAIN_MAX]; a 3D table read
    /// trilinearly or tetrahedrally (the cube split into six tetrahedra along its grey diagonal), a 1D table linearly
    /// per channel; mixed with the input by strength, in the sRGB encoding unless the LUT's space is linear.
    static func lut(_ image: ReferenceImage, _ p: Params, space: WorkingSpace) -> ReferenceImage {
        let text = (try? String(contentsOfFile: p.string("path"), encoding: .utf8)) ?? ""
        var n = 0, threeD = true, lo = [0.0, 0, 0], hi = [1.0, 1, 1], entries = [[Double]]()
        for line in text.split(separator: "\n") {
            let w = line.split(separator: " ").map(String.init)
            guard let first = w.first, !first.hasPrefix("#") else { continue }
            switch first {
            case "LUT_3D_SIZE": n = Int(w[1])!; threeD = true
            case "LUT_1D_SIZE": n = Int(w[1])!; threeD = false
            case "DOMAIN_MIN": lo = w[1...3].map { Double($0)! }
            case "DOMAIN_MAX": hi = w[1...3].map { Double($0)! }
            default: if let v = Double(first), w.count == 3 { entries.append([v, Double(w[1])!, Double(w[2])!]) }
            }
        }
        let tetrahedral = p.string("interpolation") == "tetrahedral", strength = p.number("strength")
        let lutLinear = p.string("space") == "linear"
        func toLUT(_ v: Double) -> Double {
            if space == .linear && !lutLinear { return SRGB.toEncoded(min(max(v, 0), 1)) }
            if space == .srgb && lutLinear { return v < 0 ? -SRGB.toLinear(-v) : SRGB.toLinear(v) }
            return v
        }
        func fromLUT(_ v: Double) -> Double {
            if space == .linear && !lutLinear { return v < 0 ? -SRGB.toLinear(-v) : SRGB.toLinear(v) }
            if space == .srgb && lutLinear { return SRGB.toEncoded(min(max(v, 0), 1)) }
            return v
        }
        func at(_ r: Int, _ g: Int, _ b: Int) -> [Double] { entries[r + n * (g + n * b)] }
        func look(_ c: [Double]) -> [Double] {
            let t: [Double] = (0..<3).map { (k: Int) -> Double in
                let unit: Double = (c[k] - lo[k]) / (hi[k] - lo[k])
                return min(max(unit, 0), 1) * Double(n - 1)
            }
            let i = t.map { min(Int($0), n - 2) }
            let f = (0..<3).map { t[$0] - Double(i[$0]) }
            if !threeD {
                return (0..<3).map { (k: Int) -> Double in
                    let low: Double = entries[i[k]][k], high: Double = entries[i[k] + 1][k]
                    return low * (1 - f[k]) + high * f[k]
                }
            }
            if !tetrahedral {
                var out = [0.0, 0, 0]
                for dr in 0...1 { for dg in 0...1 { for db in 0...1 {
                    let w = (dr == 1 ? f[0] : 1 - f[0]) * (dg == 1 ? f[1] : 1 - f[1]) * (db == 1 ? f[2] : 1 - f[2])
                    let e = at(i[0] + dr, i[1] + dg, i[2] + db)
                    for k in 0..<3 { out[k] += w * e[k] }
                } } }
                return out
            }
            // Walk from the corner at i to the opposite one, one axis at a time, largest fraction first: the
            // vertices of the tetrahedron holding the point, with weights the differences of the sorted fractions.
            let order = [0, 1, 2].sorted { f[$0] > f[$1] }
            var corner = i, previous = at(i[0], i[1], i[2])
            var out = previous
            for axis in order {
                corner[axis] += 1
                let next = at(corner[0], corner[1], corner[2])
                for k in 0..<3 { out[k] += f[axis] * (next[k] - previous[k]) }
                previous = next
            }
            return out
        }
        return straight(image) { v in
            let c = (0..<3).map { k in min(max(toLUT(v[k]), lo[k]), hi[k]) }
            let l = look(c)
            let mixed = (0..<3).map { k in fromLUT(c[k] + strength * (l[k] - c[k])) }
            return SIMD4(mixed[0], mixed[1], mixed[2], v[3])
        }
    }

    /// Auto levels: each channel's 8-bit sRGB codes counted; lo the lowest code with more than clipLow % of the
    /// pixels at or below it, hi the highest with more than clipHigh % at or above it; together, the lowest lo and
    /// highest hi for all three; v ↦ clamp((v − lo)/(hi − lo), 0, 1) in the working space.
    static func autoLevels(_ image: ReferenceImage, _ p: Params, space: WorkingSpace) -> ReferenceImage {
        var counts = [[Double]](repeating: [Double](repeating: 0, count: 256), count: 3)
        for v in image.pixels {
            let a = min(max(v[3], 0), 1)
            for c in 0..<3 {
                let straight = a > 0 ? min(max(v[c] / a, 0), 1) : 0
                let encoded = space == .linear ? SRGB.toEncoded(straight) : straight
                counts[c][Int((encoded * 255).rounded())] += 1
            }
        }
        let total = Double(image.pixels.count)
        var lo = [Double](), hi = [Double]()
        for c in 0..<3 {
            var cumulative = 0.0, l = 0
            for code in 0..<256 { cumulative += counts[c][code]; l = code; if cumulative > total * p.number("clipLow") / 100 { break } }
            cumulative = 0
            var h = 255
            for code in stride(from: 255, through: 0, by: -1) { cumulative += counts[c][code]; h = code; if cumulative > total * p.number("clipHigh") / 100 { break } }
            lo.append(Double(l) / 255)
            hi.append(Double(h) / 255)
        }
        if !p.bool("perChannel") {
            lo = Array(repeating: lo.min()!, count: 3)
            hi = Array(repeating: hi.max()!, count: 3)
        }
        let toWorking = { (v: Double) in space == .linear ? SRGB.toLinear(v) : v }
        return straight(image) { v in
            var out = v
            for c in 0..<3 {
                let l = toWorking(lo[c]), h = toWorking(hi[c])
                out[c] = h > l ? min(max((v[c] - l) / (h - l), 0), 1) : min(max(v[c], 0), 1)
            }
            return out
        }
    }

    /// Von Kries adaptation in Bradford's cone space (Lindbloom, "Chromatic Adaptation"): the picked colour's XYZ,
    /// scaled to Y = 1, is the source white; D65 (sRGB's white) the destination; applied to linear sRGB.
    static func whitePoint(_ image: ReferenceImage, _ p: Params, space: WorkingSpace) -> ReferenceImage {
        let toXYZ: [[Double]] = [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
        let toRGB: [[Double]] = [[3.2404542, -1.5371385, -0.4985314], [-0.9692660, 1.8760108, 0.0415560], [0.0556434, -0.2040259, 1.0572252]]
        let cone: [[Double]] = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
        let coneInverse: [[Double]] = [[0.9869929, -0.1470543, 0.1599627], [0.4323053, 0.5183603, 0.0492912], [-0.0085287, 0.0400428, 0.9684867]]
        func apply(_ m: [[Double]], _ v: [Double]) -> [Double] { (0..<3).map { r in (0..<3).reduce(0.0) { $0 + m[r][$1] * v[$1] } } }
        let c = p.color("color"), t = p.number("strength")
        let picked = apply(toXYZ, [SRGB.toLinear(c.r), SRGB.toLinear(c.g), SRGB.toLinear(c.b)])
        let sourceCone = apply(cone, picked.map { $0 / picked[1] })
        let whiteCone = apply(cone, [0.95047, 1, 1.08883])
        return straight(image) { v in
            var rgb = (0..<3).map { v[$0] }
            if space == .srgb { rgb = rgb.map { $0 < 0 ? -SRGB.toLinear(-$0) : SRGB.toLinear($0) } }
            var lms = apply(cone, apply(toXYZ, rgb))
            lms = (0..<3).map { lms[$0] * whiteCone[$0] / sourceCone[$0] }
            var out = apply(toRGB, apply(coneInverse, lms))
            out = (0..<3).map { t * out[$0] + (1 - t) * rgb[$0] }
            if space == .srgb { out = out.map { SRGB.toEncoded(min(max($0, 0), 1)) } }
            return SIMD4(out[0], out[1], out[2], v[3])
        }
    }
}
