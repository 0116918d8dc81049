import FilterCore
import Foundation

/// An image of float64 working values (RGBA, premultiplied), for the reference implementations.
package struct ReferenceImage {
    package var width: Int
    package var height: Int
    package var pixels: [SIMD4<Double>]

    package init(width: Int, height: Int, fill: SIMD4<Double> = .zero) {
        self.width = width
        self.height = height
        pixels = [SIMD4<Double>](repeating: fill, count: width * height)
    }

    package subscript(x: Int, y: Int) -> SIMD4<Double> {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Clamp-to-edge read.
    package func clamped(_ x: Int, _ y: Int) -> SIMD4<Double> {
        self[min(max(x, 0), width - 1), min(max(y, 0), height - 1)]
    }

    /// Working values of an integer buffer, by the exact sRGB formula.
    package init(_ buffer: PixelBuffer, space: WorkingSpace) throws {
        self.init(width: buffer.width, height: buffer.height)
        let base = try buffer.hostBytes()
        let channels = buffer.format.channels
        for y in 0..<height {
            for x in 0..<width {
                var s = [Double](repeating: 0, count: channels)
                for c in 0..<channels { s[c] = Double(PixelDigest.sample(base, buffer, y, x * channels + c)) / 65535 }
                let colour: [Double] = channels <= 2 ? [s[0], s[0], s[0]] : [s[0], s[1], s[2]]
                let a = buffer.format.hasAlpha ? s[channels - 1] : 1
                let decode: (Double) -> Double = space == .linear ? SRGB.toLinear : { $0 }
                self[x, y] = SIMD4(decode(colour[0]) * a, decode(colour[1]) * a, decode(colour[2]) * a, a)
            }
        }
    }

    /// Integer samples of `format` (as Double codes) the exact way: unpremultiply, clamp, encode, round.
    package func encoded(_ format: PixelFormat, space: WorkingSpace) -> [Double] {
        let maxCode = format.depth == 16 ? 65535.0 : 255.0
        var out = [Double]()
        out.reserveCapacity(width * height * format.channels)
        for p in pixels {
            let a = min(max(p[3], 0), 1)
            var straight = p[3] > 0 ? p / p[3] : .zero  // unpremultiply by the unclamped alpha, then clamp
            straight = SIMD4(min(max(straight[0], 0), 1), min(max(straight[1], 0), 1), min(max(straight[2], 0), 1), 0)
            let encode: (Double) -> Double = space == .linear ? SRGB.toEncoded : { $0 }
            let code = { (v: Double) in (encode(v) * maxCode).rounded() }
            if format.channels <= 2 {
                out.append(code(min(max(0.2126 * straight[0] + 0.7152 * straight[1] + 0.0722 * straight[2], 0), 1)))
            } else {
                out += [code(straight[0]), code(straight[1]), code(straight[2])]
            }
            if format.hasAlpha { out.append((a * maxCode).rounded()) }
        }
        return out
    }
}

/// The worst disagreement between two sample lists of an image.
package struct Difference: CustomStringConvertible {
    package var worst: Double
    package var index: Int
    package var expected: Double
    package var found: Double
    package var width: Int
    package var channels: Int

    package static func between(_ expected: [Double], _ found: [Double], width: Int, channels: Int) -> Difference {
        var d = Difference(worst: 0, index: 0, expected: 0, found: 0, width: width, channels: channels)
        let hasAlpha = channels == 2 || channels == 4
        let maxCode = max(expected.max() ?? 0, found.max() ?? 0) > 255 ? 65535.0 : 255
        // Colour is weighed by its pixel's opacity: what it contributes when shown. A fully transparent pixel's
        // colour is invisible, and at an alpha of 1/255 float noise in premultiplied values is amplified 255×.
        func weight(_ i: Int) -> Double {
            let alpha = i - i % channels + channels - 1
            guard hasAlpha, i != alpha else { return 1 }
            return min(1, max(expected[alpha], found[alpha]) / maxCode)
        }
        for i in 0..<min(expected.count, found.count) where abs(expected[i] - found[i]) * weight(i) > d.worst {
            d = Difference(worst: abs(expected[i] - found[i]) * weight(i), index: i, expected: expected[i],
                           found: found[i], width: width, channels: channels)
        }
        if expected.count != found.count { d.worst = .infinity }
        return d
    }

    /// Why `found` is not within `tolerance` of `expected` (codes of the stored depth), or nil when it is. For step
    /// functions (threshold, posterize) float32 and float64 may put a value on either side of a step, so up to 0.2 %
    /// of the samples may differ by more.
    package static func failure(_ expected: [Double], _ found: [Double], tolerance: Double, stepFunction: Bool,
                               width: Int, channels: Int) -> String? {
        if stepFunction {
            let off = zip(expected, found).filter { abs($0 - $1) > tolerance }.count
            return Double(off) <= Double(expected.count) * 0.002 && expected.count == found.count ? nil : "\(off) samples off"
        }
        let d = between(expected, found, width: width, channels: channels)
        return d.worst <= tolerance ? nil : d.description
    }

    /// Peak signal-to-noise ratio of `found` against `expected` in dB (every sample alike; infinity when equal):
    /// what a shrink's fidelity promises (`Fidelity`).
    package static func psnr(_ expected: [Double], _ found: [Double], peak: Double = 255) -> Double {
        guard expected.count == found.count, !expected.isEmpty else { return -.infinity }
        let squared = zip(expected, found).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        return squared == 0 ? .infinity : 10 * log10(peak * peak * Double(expected.count) / squared)
    }

    /// The filters whose outputs are step functions of their inputs.
    package static let stepFunctions: Set<FilterID> = [.threshold, .posterize]

    package var description: String {
        let pixel = index / channels
        return "worst difference (colour weighed by alpha) \(worst) at x \(pixel % width), y \(pixel / width), channel \(index % channels): "
            + "expected \(expected), found \(found)"
    }
}

extension PixelBuffer {
    /// Every sample as a Double code.
    package func samples() throws -> [Double] {
        let base = try hostBytes()
        let n = width * format.channels
        var out = [Double]()
        out.reserveCapacity(n * height)
        for y in 0..<height {
            for i in 0..<n {
                let v = PixelDigest.sample(base, self, y, i)
                out.append(Double(format.depth == 16 ? v : v / 257))
            }
        }
        return out
    }
}
