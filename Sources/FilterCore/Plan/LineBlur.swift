import Foundation

/// The mean of bilinear samples along a short segment through each pixel: a camera moving during the exposure
/// (motion) or zooming (zoom). Coordinates are pixel indices (pixel i's centre at i); a sample's four taps clamp to
/// the edge, and values are premultiplied, as for every blur. The zoom's samples are evaluated in float32 in the same
/// order on both backends (Shaders/line_blur.comp, fr_zoom_blur_row); a motion blur's are a fixed kernel.
package struct LineBlur: Equatable, Sendable {
    package enum Path: Equatable, Sendable {
        /// n = 2⌈r⌉ + 1 samples evenly from p − (dx, dy) to p + (dx, dy), where (dx, dy) = r·(cos θ, −sin θ).
        case motion(dx: Float, dy: Float, count: Int)
        /// n(p) = 1 + ⌈s·|p − c|⌉ samples evenly from p to p − s·(p − c): toward the centre c by the fraction s of
        /// the distance, so a pixel twice as far from the centre streaks twice as long.
        case zoom(cx: Float, cy: Float, s: Float)
    }

    package var path: Path

    package init(_ path: Path) { self.path = path }

    /// A motion blur of half-length `radius` pixels at `degrees` counter-clockwise from the +x axis (y grows down).
    package static func motion(radius: Double, degrees: Double) -> LineBlur {
        let t = degrees * .pi / 180
        return LineBlur(.motion(dx: Float(radius * cos(t)), dy: Float(-radius * sin(t)), count: 2 * Int(radius.rounded(.up)) + 1))
    }

    /// A zoom blur about (cx, cy) in pixel indices whose streak is `amount` pixels long at distance `reference` (at
    /// most the whole way to the centre).
    package static func zoom(cx: Double, cy: Double, amount: Double, reference: Double) -> LineBlur {
        LineBlur(.zoom(cx: Float(cx), cy: Float(cy), s: Float(min(1, amount / max(reference, 1)))))
    }

    /// Input rows the samples of output rows `rows` (of an image `height` tall) fall in, before clamping: the taps of
    /// a sample at y reach ⌊y⌋ and ⌊y⌋ + 1. A zoom's samples for row y lie between y and cy + (y − cy)(1 − s),
    /// which is linear in y, so the rows' ends bound the band.
    package func inputRows(for rows: Range<Int>) -> (lo: Int, hi: Int) {
        switch path {
        case let .motion(_, dy, _):
            let reach = Int(abs(dy).rounded(.up)) + 1
            return (rows.lowerBound - reach, rows.upperBound + reach)
        case let .zoom(_, cy, s):
            func end(_ y: Int) -> Float { cy + (Float(y) - cy) * (1 - s) }
            let first = rows.lowerBound, last = rows.upperBound - 1
            let lo = min(Float(first), end(first), end(last)), hi = max(Float(last), end(first), end(last))
            return (Int(lo.rounded(.down)) - 1, Int(hi.rounded(.down)) + 2)
        }
    }

    /// A motion blur's samples sit at the same offsets from every pixel, so it is a fixed sparse kernel: each
    /// sample's four bilinear taps, weights merged where taps coincide (computed in float64).
    package static func motionTaps(dx: Float, dy: Float, count: Int) -> (offsets: [(dx: Int, dy: Int)], weights: [Float]) {
        var merged = [Int: Double]()
        let (hx, hy) = (Double(dx), Double(dy)), reach = Int(max(abs(hx), abs(hy)).rounded(.up)) + 1
        for k in 0..<count {
            let t = count > 1 ? 2 * Double(k) / Double(count - 1) - 1 : 0
            let (qx, qy) = (hx * t, hy * t)
            let (fx, fy) = (qx.rounded(.down), qy.rounded(.down))
            let (tx, ty) = (qx - fx, qy - fy)
            for (ox, oy, w) in [(0, 0, (1 - tx) * (1 - ty)), (1, 0, tx * (1 - ty)), (0, 1, (1 - tx) * ty), (1, 1, tx * ty)]
            where w != 0 {
                merged[(Int(fy) + oy + reach) * (2 * reach + 1) + Int(fx) + ox + reach, default: 0] += w / Double(count)
            }
        }
        let keys = merged.keys.sorted()
        return (keys.map { (dx: $0 % (2 * reach + 1) - reach, dy: $0 / (2 * reach + 1) - reach) },
                keys.map { Float(merged[$0]!) })
    }

    /// Samples a pixel reads on average (for the work estimate): a zoom's count at two thirds of the corner distance.
    package func meanSamples(width: Int, height: Int) -> Double {
        switch path {
        case .motion(_, _, let count): return Double(count)
        case let .zoom(cx, cy, s):
            let corner = max(abs(cx), abs(Float(width) - cx)) + max(abs(cy), abs(Float(height) - cy))
            return 1 + Double(s * corner) * 2 / 3
        }
    }
}
