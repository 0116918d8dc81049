import Foundation

/// Where a window of an image holds the most interest, by libvips 8.14's `smartcrop` definitions, on 8-bit sRGB RGBA
/// samples (alpha ignored, as libvips ignores it). Runs once per render on a small image, in float64.
package enum SmartCrop {
    /// The size attention reduces the scaled image to before it looks: its cells set how finely the crop is placed.
    package static let attentionGrid = 32

    /// Where `entropy` keeps a `cropWidth`×`cropHeight` window of the `width`×`height` image.
    package static func entropyWindow(rgba: [UInt8], width: Int, height: Int, cropWidth: Int, cropHeight: Int) -> (x: Int, y: Int) {
        let cw = min(max(cropWidth, 1), width), ch = min(max(cropHeight, 1), height)
        return entropy(rgba, width, height, cw, ch)
    }

    /// CIE L*a*b* (D65) of an sRGB-encoded 8-bit colour.
    package static func lab(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (l: Double, a: Double, b: Double) {
        // CIE 15 L*a*b* relative to the D65 white (XYZ of sRGB white, 95.047, 100, 108.883).
        let c = xyz(r, g, b)
        let x = c.x / 95.047, y = c.y / 100, z = c.z / 108.883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let fx = f(x), fy = f(y), fz = f(z)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// CIE XYZ (D65, Y of white 100) of an sRGB-encoded 8-bit colour.
    package static func xyz(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (x: Double, y: Double, z: Double) {
        let v = [SRGB.toLinear(Double(r) / 255), SRGB.toLinear(Double(g) / 255), SRGB.toLinear(Double(b) / 255)]
        let m = SRGB.toXYZ
        func row(_ k: Int) -> Double { 100 * (m[k][0] * v[0] + m[k][1] * v[1] + m[k][2] * v[2]) }
        return (row(0), row(1), row(2))
    }

    /// Interest of each pixel of the (32×32) image: |5 × the 4-neighbour Laplacian of Y|, plus where Y > 5 the skin
    /// score 100·(1 − |XYZ/‖XYZ‖ − (0.78, 0.57, 0.44)|) and a* (libvips 8.14's terms, after smartcrop.js).
    package static func attentionScores(_ rgba: [UInt8], _ width: Int, _ height: Int) -> [Double] {
        var luminance = [Double](repeating: 0, count: width * height)
        var scores = luminance
        for i in 0..<width * height {
            let c = xyz(rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2])
            luminance[i] = c.y
            guard c.y > 5 else { continue }
            let norm = (c.x * c.x + c.y * c.y + c.z * c.z).squareRoot()
            let dx = c.x / norm - 0.78, dy = c.y / norm - 0.57, dz = c.z / norm - 0.44
            scores[i] = 100 - 100 * (dx * dx + dy * dy + dz * dz).squareRoot()
            scores[i] += lab(rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]).a
        }
        for y in 0..<height {
            for x in 0..<width {
                func l(_ x: Int, _ y: Int) -> Double { luminance[min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)] }
                scores[y * width + x] += abs(5 * (4 * l(x, y) - l(x - 1, y) - l(x + 1, y) - l(x, y - 1) - l(x, y + 1)))
            }
        }
        return scores
    }

    /// The window centred on the peak of the blurred interest of `grid`, the scaled image reduced to 32×32 (σ: a tenth
    /// of the window's diagonal in grid cells, at least 1); the peak's cell maps back to its left/top edge.
    package static func attention(grid rgba: [UInt8], gridWidth gw: Int, gridHeight gh: Int, width: Int, height: Int,
                                  cropWidth cw: Int, cropHeight ch: Int) -> (x: Int, y: Int) {
        let hscale = Double(gw) / Double(width), vscale = Double(gh) / Double(height)
        let sigma = max(((Double(cw) * hscale) * (Double(cw) * hscale) + (Double(ch) * vscale) * (Double(ch) * vscale)).squareRoot() / 10, 1)
        let blurred = gaussian(attentionScores(rgba, gw, gh), gw, gh, sigma: sigma)
        var best = 0
        for i in 1..<blurred.count where blurred[i] > blurred[best] { best = i }
        let ax = Int(Double(best % gw) / hscale), ay = Int(Double(best / gw) / vscale)
        return (min(max(ax - cw / 2, 0), width - cw), min(max(ay - ch / 2, 0), height - ch))
    }

    /// The image resampled to gw×gh on its sRGB-encoded codes with Lanczos-3 widened by the shrink (edges
    /// replicated), rounded to codes: how libvips reduces the scaled image before attention looks at it.
    package static func reduced(_ rgba: [UInt8], width: Int, height: Int, to gw: Int, _ gh: Int) -> [UInt8] {
        func weights(_ inSize: Int, _ outSize: Int) -> [[(Int, Double)]] {
            let ratio = Double(inSize) / Double(outSize), scale = max(1, ratio)
            return (0..<outSize).map { i in
                let centre = (Double(i) + 0.5) * ratio - 0.5
                var taps = [(Int, Double)]()
                for j in Int((centre - 3 * scale).rounded(.down))...Int((centre + 3 * scale).rounded(.up)) {
                    let t = (Double(j) - centre) / scale
                    let w = t == 0 ? 1 : abs(t) >= 3 ? 0 : 3 * sin(.pi * t) * sin(.pi * t / 3) / (.pi * .pi * t * t)
                    if w != 0 { taps.append((min(max(j, 0), inSize - 1), w)) }
                }
                let sum = taps.reduce(0) { $0 + $1.1 }
                return taps.map { ($0.0, $0.1 / sum) }
            }
        }
        let across = weights(width, gw), down = weights(height, gh)
        var rows = [Double](repeating: 0, count: gw * height * 4)
        for y in 0..<height {
            for x in 0..<gw {
                for (j, w) in across[x] { for c in 0..<4 { rows[(y * gw + x) * 4 + c] += w * Double(rgba[(y * width + j) * 4 + c]) } }
            }
        }
        var out = [UInt8](repeating: 0, count: gw * gh * 4)
        for y in 0..<gh {
            for x in 0..<gw {
                for c in 0..<4 {
                    let v = down[y].reduce(0.0) { $0 + $1.1 * rows[($1.0 * gw + x) * 4 + c] }
                    out[(y * gw + x) * 4 + c] = UInt8(min(max(v.rounded(), 0), 255))
                }
            }
        }
        return out
    }

    /// Separable Gaussian with edges replicated; taps while exp(−x²/2σ²) ≥ 0.2 (libvips's default minimum amplitude).
    static func gaussian(_ grid: [Double], _ w: Int, _ h: Int, sigma: Double) -> [Double] {
        let r = Int((sigma * (2 * log(5.0)).squareRoot()).rounded(.down))
        let taps = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let norm = taps.reduce(0, +)
        var across = grid, result = grid
        for y in 0..<h {
            for x in 0..<w {
                var s = 0.0
                for k in -r...r { s += taps[k + r] * grid[y * w + min(max(x + k, 0), w - 1)] }
                across[y * w + x] = s / norm
            }
        }
        for y in 0..<h {
            for x in 0..<w {
                var s = 0.0
                for k in -r...r { s += taps[k + r] * across[min(max(y + k, 0), h - 1) * w + x] }
                result[y * w + x] = s / norm
            }
        }
        return result
    }

    /// Summed Shannon entropy (bits) of the R, G and B histograms of a rectangle.
    package static func entropy(_ rgba: [UInt8], _ width: Int, x: Int, y: Int, w: Int, h: Int) -> Double {
        var counts = [Int](repeating: 0, count: 3 * 256)
        for row in y..<y + h {
            for col in x..<x + w {
                let i = 4 * (row * width + col)
                counts[Int(rgba[i])] += 1
                counts[256 + Int(rgba[i + 1])] += 1
                counts[512 + Int(rgba[i + 2])] += 1
            }
        }
        let n = Double(w * h)
        return counts.reduce(0.0) { sum, c in c == 0 ? sum : sum - Double(c) / n * log2(Double(c) / n) }
    }

    /// Cuts the edge slice of lower entropy on each axis that still has excess, slices of an eighth of the larger
    /// excess, until the window is left.
    static func entropy(_ rgba: [UInt8], _ width: Int, _ height: Int, _ cw: Int, _ ch: Int) -> (x: Int, y: Int) {
        var left = 0, top = 0, w = width, h = height
        let slice = max(Int((Double(width - cw) / 8).rounded(.up)), Int((Double(height - ch) / 8).rounded(.up)))
        while w > cw || h > ch {
            let sw = min(w - cw, slice), sh = min(h - ch, slice)
            if sw > 0 {
                let l = entropy(rgba, width, x: left, y: top, w: sw, h: h)
                let r = entropy(rgba, width, x: left + w - sw, y: top, w: sw, h: h)
                w -= sw
                if l < r { left += sw }
            }
            if sh > 0 {
                let t = entropy(rgba, width, x: left, y: top, w: w, h: sh)
                let b = entropy(rgba, width, x: left, y: top + h - sh, w: w, h: sh)
                h -= sh
                if t < b { top += sh }
            }
        }
        return (left, top)
    }
}
