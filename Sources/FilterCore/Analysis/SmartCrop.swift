import Foundation

/// Where a window of an image holds the most interest, by libvips's `smartcrop` definitions, on 8-bit sRGB RGBA
/// samples (alpha ignored, as libvips ignores it). Runs once per render on an image of at most ~1 MP, in float64.
package enum SmartCrop {
    /// The top-left corner of the `cropWidth`×`cropHeight` window of the `width`×`height` image.
    package static func window(_ strategy: CropStrategy, rgba: [UInt8], width: Int, height: Int,
                               cropWidth: Int, cropHeight: Int) -> (x: Int, y: Int) {
        let cw = min(max(cropWidth, 1), width), ch = min(max(cropHeight, 1), height)
        if cw == width && ch == height { return (0, 0) }
        switch strategy {
        case .attention: return attention(rgba, width, height, cw, ch)
        case .entropy: return entropy(rgba, width, height, cw, ch)
        }
    }

    /// CIE L*a*b* (D65) of an sRGB-encoded 8-bit colour.
    package static func lab(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (l: Double, a: Double, b: Double) {
        let lr = SRGB.toLinear(Double(r) / 255), lg = SRGB.toLinear(Double(g) / 255), lb = SRGB.toLinear(Double(b) / 255)
        // IEC 61966-2-1 primaries to XYZ, then CIE 15 L*a*b* with the D65 white.
        let x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047
        let y = 0.2126729 * lr + 0.7151522 * lg + 0.0721750 * lb
        let z = (0.0193339 * lr + 0.1191920 * lg + 0.9503041 * lb) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let fx = f(x), fy = f(y), fz = f(z)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// Interest per pixel: |Sobel x| + |Sobel y| of L*, plus 255 where the colour is skin-like (a* in 3…22, b* in
    /// 4…31, L* ≥ 15), plus 255 where chroma C* exceeds 60.
    package static func attentionScores(_ rgba: [UInt8], _ width: Int, _ height: Int) -> [Double] {
        var l = [Double](repeating: 0, count: width * height)
        var bonus = [Double](repeating: 0, count: width * height)
        for i in 0..<width * height {
            let c = lab(rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2])
            l[i] = c.l
            if c.a >= 3 && c.a <= 22 && c.b >= 4 && c.b <= 31 && c.l >= 15 { bonus[i] += 255 }
            if (c.a * c.a + c.b * c.b).squareRoot() > 60 { bonus[i] += 255 }
        }
        var scores = bonus
        for y in 0..<height {
            let up = max(y - 1, 0) * width, row = y * width, down = min(y + 1, height - 1) * width
            for x in 0..<width {
                let left = max(x - 1, 0), right = min(x + 1, width - 1)
                let gx = (l[up + right] + 2 * l[row + right] + l[down + right]) - (l[up + left] + 2 * l[row + left] + l[down + left])
                let gy = (l[down + left] + 2 * l[down + x] + l[down + right]) - (l[up + left] + 2 * l[up + x] + l[up + right])
                scores[row + x] += abs(gx) + abs(gy)
            }
        }
        return scores
    }

    static func attention(_ rgba: [UInt8], _ width: Int, _ height: Int, _ cw: Int, _ ch: Int) -> (x: Int, y: Int) {
        let scores = attentionScores(rgba, width, height)
        // Pool onto (up to) 32×32 blocks by area: the block size sets how finely the crop can be placed.
        let gw = min(32, width), gh = min(32, height)
        var grid = [Double](repeating: 0, count: gw * gh)
        for by in 0..<gh {
            let y0 = by * height / gh, y1 = (by + 1) * height / gh
            for bx in 0..<gw {
                let x0 = bx * width / gw, x1 = (bx + 1) * width / gw
                var sum = 0.0
                for y in y0..<y1 { for x in x0..<x1 { sum += scores[y * width + x] } }
                grid[by * gw + bx] = sum / Double((y1 - y0) * (x1 - x0))
            }
        }
        // Blur over about the window's extent, so the peak is where a whole window gathers the most.
        let hs = Double(width) / Double(gw), vs = Double(height) / Double(gh)
        let sigma = ((Double(cw) / hs) * (Double(cw) / hs) + (Double(ch) / vs) * (Double(ch) / vs)).squareRoot() / 6
        let blurred = gaussian(grid, gw, gh, sigma: sigma)
        var best = 0
        for i in 1..<blurred.count where blurred[i] > blurred[best] { best = i }
        let cx = (Double(best % gw) + 0.5) * hs, cy = (Double(best / gw) + 0.5) * vs
        let x = Int((cx - Double(cw) / 2).rounded()), y = Int((cy - Double(ch) / 2).rounded())
        return (min(max(x, 0), width - cw), min(max(y, 0), height - ch))
    }

    /// Separable Gaussian with edges clamped, taps to 3σ.
    static func gaussian(_ grid: [Double], _ w: Int, _ h: Int, sigma: Double) -> [Double] {
        guard sigma > 0.01 else { return grid }
        let r = Int((3 * sigma).rounded(.up))
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
