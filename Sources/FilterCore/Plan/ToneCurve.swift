import Foundation

/// A monotone cubic (Fritsch–Carlson) through control points in [0, 1]², tabulated for evaluation.
/// Inputs are clamped to [0, 1]; outside the first and last point the curve is flat.
package struct ToneCurve: Equatable, Sendable {
    package let points: [[Double]]
    /// `tableSize + 1` samples of the curve at evenly spaced inputs; read with linear interpolation.
    package let table: [Float]
    package static let tableSize = 4096

    package init(points: [[Double]]) {
        self.points = points
        let xs = points.map { $0[0] }, ys = points.map { $0[1] }
        let tangents = Self.tangents(xs, ys)
        table = (0...Self.tableSize).map { i in
            Float(Self.evaluate(Double(i) / Double(Self.tableSize), xs, ys, tangents))
        }
    }

    package var isIdentity: Bool { points == [[0, 0], [1, 1]] }

    /// Exact float64 value of the curve at `x` (the reference the table is checked against).
    package func exact(_ x: Double) -> Double {
        let xs = points.map { $0[0] }, ys = points.map { $0[1] }
        return Self.evaluate(x, xs, ys, Self.tangents(xs, ys))
    }

    /// Replaces each of `count` values with the curve's value there, from its table, linearly interpolated
    /// (inputs clamped to 0…1). Scalar: a table read per value has no vector form without gathers.
    @inlinable
    package static func lookUp(_ values: UnsafeMutablePointer<Float>, count: Int, in table: UnsafeBufferPointer<Float>) {
        for k in 0..<count {
            let x = values[k]
            let position = (x > 0 ? (x < 1 ? x : 1) : 0) * Float(tableSize)
            let i = min(Int(position), tableSize - 1)
            values[k] = table[i] + (position - Float(i)) * (table[i + 1] - table[i])
        }
    }

    static func tangents(_ xs: [Double], _ ys: [Double]) -> [Double] {
        let n = xs.count
        if n < 2 { return [0] }
        var slopes = [Double]()
        for k in 0..<(n - 1) {
            let dy: Double = ys[k + 1] - ys[k]
            slopes.append(dy / (xs[k + 1] - xs[k]))
        }
        var m = [Double](repeating: 0, count: n)
        m[0] = slopes[0]
        m[n - 1] = slopes[n - 2]
        for i in 1..<max(1, n - 1) where i < n - 1 {
            m[i] = slopes[i - 1] * slopes[i] <= 0 ? 0 : (slopes[i - 1] + slopes[i]) / 2
        }
        for i in 0..<(n - 1) {
            if slopes[i] == 0 { m[i] = 0; m[i + 1] = 0; continue }
            let a: Double = m[i] / slopes[i], b: Double = m[i + 1] / slopes[i]
            let s: Double = a * a + b * b
            if s > 9 {
                let t: Double = 3 / s.squareRoot()
                m[i] = t * a * slopes[i]
                m[i + 1] = t * b * slopes[i]
            }
        }
        return m
    }

    static func evaluate(_ x: Double, _ xs: [Double], _ ys: [Double], _ m: [Double]) -> Double {
        let x = min(max(x, 0), 1)
        if x <= xs[0] { return ys[0] }
        if x >= xs[xs.count - 1] { return ys[ys.count - 1] }
        var k = 0
        while x > xs[k + 1] { k += 1 }
        let h = xs[k + 1] - xs[k]
        let t = (x - xs[k]) / h
        let t2: Double = t * t, t3: Double = t2 * t
        let h00: Double = 2 * t3 - 3 * t2 + 1, h10: Double = t3 - 2 * t2 + t
        let h01: Double = -2 * t3 + 3 * t2, h11: Double = t3 - t2
        let left: Double = h00 * ys[k] + h10 * h * m[k]
        return left + h01 * ys[k + 1] + h11 * h * m[k + 1]
    }
}
