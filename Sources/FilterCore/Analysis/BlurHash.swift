import Foundation

/// BlurHash (Wolt, github.com/woltapp/blurhash, "Algorithm"): the image as a few cosine components of its linear-light
/// colour, quantised and written in base 83, a placeholder of 20–30 characters.
package enum BlurHash {
    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    /// The hash of `width`×`height` 8-bit sRGB RGBA pixels (alpha ignored) with `x`×`y` components (1…9 each).
    package static func encode(rgba: [UInt8], width: Int, height: Int, x componentsX: Int, y componentsY: Int) -> String {
        let linear = (0..<256).map { SRGB.toLinear(Double($0) / 255) }
        var factors = [SIMD3<Double>]()
        for j in 0..<componentsY {
            for i in 0..<componentsX {
                let normalisation: Double = i == 0 && j == 0 ? 1 : 2
                var sum = SIMD3<Double>()
                for py in 0..<height {
                    let cy = cos(Double.pi * Double(j) * Double(py) / Double(height))
                    for px in 0..<width {
                        let basis = normalisation * cos(Double.pi * Double(i) * Double(px) / Double(width)) * cy
                        let p = 4 * (py * width + px)
                        sum += basis * SIMD3(linear[Int(rgba[p])], linear[Int(rgba[p + 1])], linear[Int(rgba[p + 2])])
                    }
                }
                factors.append(sum / Double(width * height))
            }
        }
        var hash = base83((componentsX - 1) + (componentsY - 1) * 9, digits: 1)
        let ac = factors.dropFirst()
        var maximum = 1.0
        if let largest = ac.map({ max(abs($0.x), abs($0.y), abs($0.z)) }).max() {
            let quantised = Int(min(max((largest * 166 - 0.5).rounded(.down), 0), 82))
            maximum = Double(quantised + 1) / 166
            hash += base83(quantised, digits: 1)
        } else {
            hash += base83(0, digits: 1)
        }
        let dc = factors[0]
        hash += base83((encoded(dc.x) << 16) + (encoded(dc.y) << 8) + encoded(dc.z), digits: 4)
        for f in ac {
            func q(_ v: Double) -> Int {
                let s = v / maximum
                let signedRoot = (s < 0 ? -1 : 1) * abs(s).squareRoot()
                return Int(min(max((signedRoot * 9 + 9.5).rounded(.down), 0), 18))
            }
            hash += base83(q(f.x) * 19 * 19 + q(f.y) * 19 + q(f.z), digits: 2)
        }
        return hash
    }

    /// A linear value as an 8-bit sRGB code, the reference's rounding (add ½, truncate).
    static func encoded(_ v: Double) -> Int {
        let x = min(max(v, 0), 1)
        return Int((x <= 0.0031308 ? x * 12.92 : 1.055 * pow(x, 1 / 2.4) - 0.055) * 255 + 0.5)
    }

    static func base83(_ value: Int, digits: Int) -> String {
        var out = ""
        for i in 1...digits {
            var divisor = 1
            for _ in 0..<(digits - i) { divisor *= 83 }
            out.append(alphabet[(value / divisor) % 83])
        }
        return out
    }
}
