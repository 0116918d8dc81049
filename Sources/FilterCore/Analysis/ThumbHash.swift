import Foundation

/// ThumbHash (Evan Wallace, evanw.github.io/thumbhash): a placeholder of ~25 bytes that keeps the aspect ratio,
/// the average colour and alpha. The image (at most 100×100, 8-bit RGBA straight) is composited on its average
/// colour, turned into L = (R+G+B)/3, P = (R+G)/2 − B, Q = R − G (and A), and each channel's low cosine
/// coefficients (DC, then AC scaled to their largest) are packed: a 24- and a 16-bit header, then 4 bits an AC.
package enum ThumbHash {
    /// Rounds as JavaScript's Math.round (halves up), as the reference does.
    @inline(__always) static func round(_ v: Double) -> Int { Int((v + 0.5).rounded(.down)) }

    package static func encode(rgba: [UInt8], width w: Int, height h: Int) -> [UInt8] {
        precondition(w <= 100 && h <= 100 && w > 0 && h > 0, "ThumbHash takes images of at most 100×100")
        var average = SIMD4<Double>()
        for i in 0..<w * h {
            let alpha = Double(rgba[4 * i + 3]) / 255
            average += SIMD4(alpha / 255 * Double(rgba[4 * i]), alpha / 255 * Double(rgba[4 * i + 1]),
                             alpha / 255 * Double(rgba[4 * i + 2]), alpha)
        }
        if average.w > 0 { average = SIMD4(average.x / average.w, average.y / average.w, average.z / average.w, average.w) }
        let hasAlpha = average.w < Double(w * h)
        let limit = hasAlpha ? 5.0 : 7.0
        let lx = max(1, round(limit * Double(w) / Double(max(w, h))))
        let ly = max(1, round(limit * Double(h) / Double(max(w, h))))
        var l = [Double](), p = [Double](), q = [Double](), a = [Double]()
        for i in 0..<w * h {
            let alpha = Double(rgba[4 * i + 3]) / 255
            let r = average.x * (1 - alpha) + alpha / 255 * Double(rgba[4 * i])
            let g = average.y * (1 - alpha) + alpha / 255 * Double(rgba[4 * i + 1])
            let b = average.z * (1 - alpha) + alpha / 255 * Double(rgba[4 * i + 2])
            l.append((r + g + b) / 3)
            p.append((r + g) / 2 - b)
            q.append(r - g)
            a.append(alpha)
        }
        /// DC, the AC coefficients scaled into [0, 1], and their scale; coefficients (cx, cy) with cx·ny < nx·(ny − cy).
        func channel(_ values: [Double], _ nx: Int, _ ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
            var dc = 0.0, ac = [Double](), scale = 0.0
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    var f = 0.0
                    let fx = (0..<w).map { cos(Double.pi / Double(w) * Double(cx) * (Double($0) + 0.5)) }
                    for y in 0..<h {
                        let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                        for x in 0..<w { f += values[x + y * w] * fx[x] * fy }
                    }
                    f /= Double(w * h)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
            return (dc, ac, scale)
        }
        let lc = channel(l, max(3, lx), max(3, ly)), pc = channel(p, 3, 3), qc = channel(q, 3, 3)
        let ac = hasAlpha ? channel(a, 5, 5) : (dc: 1, ac: [], scale: 1)
        let landscape = w > h
        let header24 = round(63 * lc.dc) | (round(31.5 + 31.5 * pc.dc) << 6) | (round(31.5 + 31.5 * qc.dc) << 12)
            | (round(31 * lc.scale) << 18) | ((hasAlpha ? 1 : 0) << 23)
        let header16 = (landscape ? ly : lx) | (round(63 * pc.scale) << 3) | (round(63 * qc.scale) << 9) | ((landscape ? 1 : 0) << 15)
        var hash: [UInt8] = [UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8(header24 >> 16),
                             UInt8(header16 & 255), UInt8(header16 >> 8)]
        if hasAlpha { hash.append(UInt8(round(15 * ac.dc) | (round(15 * ac.scale) << 4))) }
        var odd = false
        for coefficient in lc.ac + pc.ac + qc.ac + ac.ac {
            let u = UInt8(round(15 * coefficient))
            if odd { hash[hash.count - 1] |= u << 4 } else { hash.append(u) }
            odd.toggle()
        }
        return hash
    }
}
