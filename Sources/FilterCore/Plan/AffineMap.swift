import Foundation

/// Where each output pixel samples its input: input = M·output + t, on continuous coordinates whose origin is the
/// top-left corner (pixel (i, j) covers [i, i + 1) × [j, j + 1), its centre at (i + ½, j + ½)). Stored as the
/// inverse of the user's input → output matrix, since sampling walks the output.
package struct AffineMap: Equatable, Sendable {
    /// Row-major [[a, b, c], [d, e, f]]: x_in = a·x + b·y + c, y_in = d·x + e·y + f.
    package let a: Double, b: Double, c: Double, d: Double, e: Double, f: Double

    package init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    /// The inverse of a forward (input → output) matrix; nil when it is singular or not finite.
    package init?(inverting m: [Double]) {
        guard m.count == 6, m.allSatisfy(\.isFinite) else { return nil }
        let det = m[0] * m[4] - m[1] * m[3]
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let a = m[4] / det, b = -m[1] / det, d = -m[3] / det, e = m[0] / det
        self.init(a, b, -(a * m[2] + b * m[5]), d, e, -(d * m[2] + e * m[5]))
    }

    /// Clockwise rotation by `degrees` about the centres of a `width`×`height` input and a `outWidth`×`outHeight`
    /// output (y points down, so a positive angle turns clockwise on screen).
    package static func rotation(degrees: Double, width: Int, height: Int, outWidth: Int, outHeight: Int) -> AffineMap {
        let t = degrees * .pi / 180, cosT = cos(t), sinT = sin(t)
        let cx = Double(outWidth) / 2, cy = Double(outHeight) / 2, ix = Double(width) / 2, iy = Double(height) / 2
        // input = R(−θ)·(output − centre_out) + centre_in
        return AffineMap(cosT, sinT, ix - cosT * cx - sinT * cy, -sinT, cosT, iy + sinT * cx - cosT * cy)
    }

    /// The bounding size of a `width`×`height` image rotated by `degrees` (what a `fit` canvas holds).
    package static func rotatedSize(degrees: Double, width: Int, height: Int) -> (width: Int, height: Int) {
        let t = degrees * .pi / 180, cosT = abs(cos(t)), sinT = abs(sin(t))
        // Shave float noise so 30° on a square does not grow by a pixel from 1e-12 of rounding.
        func size(_ v: Double) -> Int { max(1, Int(ceil(v - 1e-6))) }
        return (size(Double(width) * cosT + Double(height) * sinT), size(Double(width) * sinT + Double(height) * cosT))
    }

    /// The largest rectangle of the input's shape, centred, that a `width`×`height` image rotated by `degrees`
    /// covers with every tap of a kernel of `radius` inside the image (straightening: no empty corners).
    package static func insideSize(degrees: Double, width: Int, height: Int, radius: Double) -> (width: Int, height: Int) {
        let t = degrees * .pi / 180, cosT = abs(cos(t)), sinT = abs(sin(t))
        let w = Double(width), h = Double(height)
        // A corner (s·w/2, s·h/2) turned back must lie `radius` inside the input on both axes.
        let s = max(0, min((w - 2 * radius) / (w * cosT + h * sinT), (h - 2 * radius) / (w * sinT + h * cosT)))
        return (max(1, Int(floor(s * w + 1e-6))), max(1, Int(floor(s * h + 1e-6))))
    }

    /// Whether every tap of every output pixel lies inside the input, so the background never shows. The image of
    /// the output under the map is a parallelogram, so its corner pixels decide.
    package func covers(outWidth: Int, outHeight: Int, inWidth: Int, inHeight: Int, kernel: ResampleKernel) -> Bool {
        let scale = kernelScale
        let reach = kernel == .nearest ? (0.0, 0.0) : (kernel.radius * scale.x, kernel.radius * scale.y)
        for (x, y) in [(0.5, 0.5), (Double(outWidth) - 0.5, 0.5), (0.5, Double(outHeight) - 0.5),
                       (Double(outWidth) - 0.5, Double(outHeight) - 0.5)] {
            let p = input(x, y)
            guard p.x - reach.0 >= 0, p.y - reach.1 >= 0, p.x + reach.0 <= Double(inWidth), p.y + reach.1 <= Double(inHeight)
            else { return false }
        }
        return true
    }

    package func input(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (a * x + b * y + c, d * x + e * y + f) }

    /// Input pixels per output pixel along each input axis (at least 1): how far the kernel widens so a shrinking
    /// transform averages every input pixel it covers, as resize does.
    package var kernelScale: (x: Double, y: Double) { (max(1, (a * a + b * b).squareRoot()), max(1, (d * d + e * e).squareRoot())) }

    /// Input rows read for output rows `rows` of an output `outWidth` wide, sampled with `kernel`, before clamping
    /// to the input (may lie wholly outside it when the band samples only background).
    package func inputRows(for rows: Range<Int>, outWidth: Int, kernel: ResampleKernel) -> (lo: Int, hi: Int) {
        var lo = Double.infinity, hi = -Double.infinity
        for (x, y) in [(0.0, Double(rows.lowerBound)), (Double(outWidth), Double(rows.lowerBound)),
                       (0.0, Double(rows.upperBound)), (Double(outWidth), Double(rows.upperBound))] {
            let p = input(x, y)
            lo = min(lo, p.y)
            hi = max(hi, p.y)
        }
        let reach = kernel == .nearest ? 1 : kernel.radius * kernelScale.y + 1
        return (Int(floor(lo - reach)), Int(ceil(hi + reach)) + 1)
    }
}

/// The taps of one input axis for one output sample. Indices outside the input read the background.
package enum AffineTaps {
    /// Most taps `at` writes for a kernel widened by `scale`.
    package static func capacity(_ kernel: ResampleKernel, scale: Double) -> Int {
        kernel == .nearest ? 1 : Int(ceil(2 * kernel.radius * scale)) + 2
    }

    /// Taps around continuous coordinate `position` (corner origin), the kernel widened by `scale`: writes the
    /// weights (normalised to sum 1) to `weights` and returns the first input index and the count. Nearest picks
    /// the pixel containing the position.
    @inline(__always)
    package static func at(_ position: Double, kernel: ResampleKernel, scale: Double,
                          into weights: UnsafeMutablePointer<Double>) -> (first: Int, count: Int) {
        if kernel == .nearest {
            weights[0] = 1
            return (Int(floor(position)), 1)
        }
        let u = position - 0.5, support = kernel.radius * scale
        let first = Int(ceil(u - support)), last = Int(floor(u + support))
        guard last >= first else { return (first, 0) }
        var sum = 0.0
        for j in first...last {
            let w = kernel.weight((Double(j) - u) / scale)
            weights[j - first] = w
            sum += w
        }
        let count = last - first + 1
        if sum != 0 { for t in 0..<count { weights[t] /= sum } }
        return (first, count)
    }
}
