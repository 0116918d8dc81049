import Foundation

/// Where each output pixel samples its input: a plane projective map (a homography; affine when its last row is
/// [0, 0, 1]) on continuous coordinates whose origin is the top-left corner (pixel (i, j) covers [i, i + 1) ×
/// [j, j + 1), its centre at (i + ½, j + ½)). Stored as output → input, the inverse of the user's matrix, since
/// sampling walks the output.
package struct WarpMap: Equatable, Sendable {
    /// Row-major [[a, b, c], [d, e, f], [g, h, i]]: w = g·x + h·y + i, x_in = (a·x + b·y + c) / w,
    /// y_in = (d·x + e·y + f) / w. Where w ≤ 0 the point lies behind the view: the output sees only background.
    package let a: Double, b: Double, c: Double, d: Double, e: Double, f: Double
    package let g: Double, h: Double, i: Double

    /// A projective map's kernel widens at most this much: past it (near a vanishing line, where one output pixel
    /// covers ever more input) each pixel would read thousands of taps. Stated in `perspective`'s formula.
    package static let maxWidening = 16.0

    package init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double,
                 _ g: Double = 0, _ h: Double = 0, _ i: Double = 1) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
        (self.g, self.h, self.i) = (g, h, i)
    }

    /// The inverse of a forward (input → output) matrix: 6 entries (affine) or 9 (projective); nil when it is
    /// singular or not finite.
    package init?(inverting m: [Double]) {
        guard m.count == 6 || m.count == 9, m.allSatisfy(\.isFinite) else { return nil }
        if m.count == 6 {
            let det = m[0] * m[4] - m[1] * m[3]
            guard det.isFinite, abs(det) > 1e-12 else { return nil }
            let a = m[4] / det, b = -m[1] / det, d = -m[3] / det, e = m[0] / det
            self.init(a, b, -(a * m[2] + b * m[5]), d, e, -(d * m[2] + e * m[5]))
            return
        }
        // The adjugate: the inverse up to scale, which a homography ignores. Scaled so its largest entry is 1, the
        // singularity test does not depend on the units.
        let adj = [m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                   m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                   m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]]
        let det = m[0] * adj[0] + m[1] * adj[3] + m[2] * adj[6]
        let largest = m.map(abs).max() ?? 0
        guard det.isFinite, largest > 0, abs(det) > 1e-12 * largest * largest * largest else { return nil }
        let s = 1 / (adj.map(abs).max() ?? 1)
        self.init(adj[0] * s, adj[1] * s, adj[2] * s, adj[3] * s, adj[4] * s, adj[5] * s, adj[6] * s, adj[7] * s,
                  adj[8] * s)
    }

    /// The map that takes a `width`×`height` output onto the input quadrilateral `corners` (x, y of the top-left,
    /// top-right, bottom-right and bottom-left corners): perspective correction. Heckbert's closed form for the
    /// unit square onto a quadrilateral (Fundamentals of Texture Mapping, 1989, §2.2.3), scaled to the output.
    /// Nil unless the corners form a convex quadrilateral, which keeps w > 0 over the whole output.
    package init?(output width: Int, _ height: Int, onto corners: [Double]) {
        guard corners.count == 8, corners.allSatisfy(\.isFinite), WarpMap.isConvex(corners) else { return nil }
        let x = [corners[0], corners[2], corners[4], corners[6]], y = [corners[1], corners[3], corners[5], corners[7]]
        let dx1 = x[1] - x[2], dx2 = x[3] - x[2], dx3 = x[0] - x[1] + x[2] - x[3]
        let dy1 = y[1] - y[2], dy2 = y[3] - y[2], dy3 = y[0] - y[1] + y[2] - y[3]
        let den = dx1 * dy2 - dx2 * dy1
        guard abs(den) > 1e-12 else { return nil }
        let g = (dx3 * dy2 - dx2 * dy3) / den, h = (dx1 * dy3 - dx3 * dy1) / den
        let w = Double(width), hh = Double(height)
        // u = x / width, v = y / height.
        self.init((x[1] - x[0] + g * x[1]) / w, (x[3] - x[0] + h * x[3]) / hh, x[0],
                  (y[1] - y[0] + g * y[1]) / w, (y[3] - y[0] + h * y[3]) / hh, y[0], g / w, h / hh, 1)
    }

    /// Whether four points, in order, turn the same way at every corner with no zero-length side or straight angle.
    package static func isConvex(_ p: [Double]) -> Bool {
        guard p.count == 8 else { return false }
        var sign = 0.0
        for k in 0..<4 {
            let (x0, y0) = (p[2 * k], p[2 * k + 1])
            let (x1, y1) = (p[2 * ((k + 1) % 4)], p[2 * ((k + 1) % 4) + 1])
            let (x2, y2) = (p[2 * ((k + 2) % 4)], p[2 * ((k + 2) % 4) + 1])
            let cross = (x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1)
            let scale = max(abs(x1 - x0) + abs(y1 - y0), 1e-300) * max(abs(x2 - x1) + abs(y2 - y1), 1e-300)
            guard abs(cross) > 1e-9 * scale else { return false }
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
        }
        // Four turns the same way, each under a half turn, add to one full turn: a simple convex quadrilateral.
        return true
    }

    package var isAffine: Bool { g == 0 && h == 0 && i == 1 }

    /// The map with its sign chosen so w > 0 at (`x`, `y`) (a homography and its negation are the same map, but
    /// w's sign says which side of the vanishing line is in view).
    package func facing(_ x: Double, _ y: Double) -> WarpMap {
        g * x + h * y + i >= 0 ? self : WarpMap(-a, -b, -c, -d, -e, -f, -g, -h, -i)
    }

    /// Clockwise rotation by `degrees` about the centres of a `width`×`height` input and a `outWidth`×`outHeight`
    /// output (y points down, so a positive angle turns clockwise on screen).
    package static func rotation(degrees: Double, width: Int, height: Int, outWidth: Int, outHeight: Int) -> WarpMap {
        let t = degrees * .pi / 180, cosT = cos(t), sinT = sin(t)
        let cx = Double(outWidth) / 2, cy = Double(outHeight) / 2, ix = Double(width) / 2, iy = Double(height) / 2
        // input = R(−θ)·(output − centre_out) + centre_in
        return WarpMap(cosT, sinT, ix - cosT * cx - sinT * cy, -sinT, cosT, iy + sinT * cx - cosT * cy)
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

    /// Whether every tap of every output pixel lies inside the input, so the background never shows. The pixel
    /// centres of the output form a rectangle; a map with w > 0 over it (w is affine, so its corners decide) takes
    /// it to a convex quadrilateral — a parallelogram for an affine map — whose corners are the corner pixels'
    /// positions. Each pixel's taps lie within the kernel's reach of its position, the same everywhere for an affine
    /// map and at most `maxWidening` times the kernel's radius for a projective one, so the four corner pixels with
    /// that reach inside the input decide for every pixel.
    package func covers(outWidth: Int, outHeight: Int, inWidth: Int, inHeight: Int, kernel: ResampleKernel) -> Bool {
        let scale = kernelScale
        let reach = kernel == .nearest ? (0.0, 0.0) : (kernel.radius * scale.x, kernel.radius * scale.y)
        for (x, y) in [(0.5, 0.5), (Double(outWidth) - 0.5, 0.5), (0.5, Double(outHeight) - 0.5),
                       (Double(outWidth) - 0.5, Double(outHeight) - 0.5)] {
            guard let p = isAffine ? input(x, y) : point(x, y),
                  p.x - reach.0 >= 0, p.y - reach.1 >= 0, p.x + reach.0 <= Double(inWidth),
                  p.y + reach.1 <= Double(inHeight)
            else { return false }
        }
        return true
    }

    /// The input position an affine map gives (x, y): no division.
    package func input(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (a * x + b * y + c, d * x + e * y + f) }

    /// The input position of (x, y), or nil where it lies behind the view (w ≤ 0, or too near 0 to divide by).
    @inline(__always)
    package func point(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        let w = g * x + h * y + i
        guard w > 1e-12 else { return nil }
        let p = ((a * x + b * y + c) / w, (d * x + e * y + f) / w)
        guard abs(p.0) < 1e12, abs(p.1) < 1e12 else { return nil }
        return p
    }

    /// Input pixels per output pixel along each input axis (at least 1): how far the kernel widens so a shrinking
    /// transform averages every input pixel it covers, as resize does. An affine map's is the same everywhere; a
    /// projective map's is `scale(at:)`, and this is its bound, `maxWidening`.
    package var kernelScale: (x: Double, y: Double) {
        guard isAffine else { return (Self.maxWidening, Self.maxWidening) }
        return (max(1, (a * a + b * b).squareRoot()), max(1, (d * d + e * e).squareRoot()))
    }

    /// The kernel widening at output point (x, y) whose input position is `p`: the lengths of the rows of the
    /// map's Jacobian (how far x_in and y_in move per output pixel), from 1 to `maxWidening`.
    @inline(__always)
    package func scale(at x: Double, _ y: Double, _ p: (x: Double, y: Double)) -> (x: Double, y: Double) {
        if isAffine { return kernelScale }
        let w = g * x + h * y + i
        // ∂x_in/∂x = (a − g·x_in) / w, ∂x_in/∂y = (b − h·x_in) / w; the same for y_in with d, e.
        let xx = (a - g * p.x) / w, xy = (b - h * p.x) / w, yx = (d - g * p.y) / w, yy = (e - h * p.y) / w
        return (min(Self.maxWidening, max(1, (xx * xx + xy * xy).squareRoot())),
                min(Self.maxWidening, max(1, (yx * yx + yy * yy).squareRoot())))
    }

    /// Taps a `kernel` reads per output pixel, averaged over a 16×16 grid of a `width`×`height` output (points
    /// behind the view read none): what work estimates charge. Exact for an affine map.
    package func meanTaps(width: Int, height: Int, kernel: ResampleKernel) -> Double {
        guard kernel != .nearest else { return 1 }
        func taps(_ s: (x: Double, y: Double)) -> Double { (2 * kernel.radius * s.x + 1) * (2 * kernel.radius * s.y + 1) }
        if isAffine { return taps(kernelScale) }
        var sum = 0.0
        for j in 0..<16 {
            for k in 0..<16 {
                let x = (Double(k) + 0.5) * Double(width) / 16, y = (Double(j) + 0.5) * Double(height) / 16
                if let p = point(x, y) { sum += taps(scale(at: x, y, p)) }
            }
        }
        return sum / 256
    }

    /// Input rows read for output rows `rows` of an output `outWidth` wide, sampled with `kernel`, before clamping
    /// to the input (may lie wholly outside it when the band samples only background). Where the band crosses the
    /// vanishing line its image is unbounded: every row.
    package func inputRows(for rows: Range<Int>, outWidth: Int, kernel: ResampleKernel) -> (lo: Int, hi: Int) {
        var lo = Double.infinity, hi = -Double.infinity
        for (x, y) in [(0.0, Double(rows.lowerBound)), (Double(outWidth), Double(rows.lowerBound)),
                       (0.0, Double(rows.upperBound)), (Double(outWidth), Double(rows.upperBound))] {
            guard let p = point(x, y) else { return (Int.min / 4, Int.max / 4) }
            lo = min(lo, p.y)
            hi = max(hi, p.y)
        }
        let reach = kernel == .nearest ? 1 : kernel.radius * kernelScale.y + 1
        guard lo > -1e9, hi < 1e9 else { return (Int.min / 4, Int.max / 4) }
        return (Int(floor(lo - reach)), Int(ceil(hi + reach)) + 1)
    }
}

/// The taps of one input axis for one output sample. Indices outside the input read the background.
package enum WarpTaps {
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
