/// A 4×5 affine colour transform on straight (unpremultiplied) RGBA: out[i] = Σ m[i][j]·in[j] + offset[i].
package struct ColorMatrix: Equatable, Sendable {
    /// Row-major 4×4 coefficients.
    package var m: [Float]
    package var offset: SIMD4<Float>

    package init(rows: [[Float]], offset: SIMD4<Float> = .zero) {
        m = rows.flatMap { $0 }
        self.offset = offset
    }

    /// From the recipe layout: 4 rows of 5 numbers (4 coefficients, then the offset).
    package init(recipe values: [Double]) {
        m = (0..<4).flatMap { r in (0..<4).map { c in Float(values[r * 5 + c]) } }
        offset = SIMD4((0..<4).map { Float(values[$0 * 5 + 4]) })
    }

    package static let identity = ColorMatrix(rows: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])

    /// Rec. 709 luminance weights (linear light).
    package static let luma: SIMD3<Float> = [0.2126, 0.7152, 0.0722]

    /// An RGB-only transform (alpha passes through).
    package static func rgb(_ rows: [[Float]], offset: Float = 0) -> ColorMatrix {
        ColorMatrix(rows: rows.map { $0 + [0] } + [[0, 0, 0, 1]], offset: SIMD4(offset, offset, offset, 0))
    }

    package var isIdentity: Bool { self == .identity }

    /// `self` applied after `first`.
    package func after(_ first: ColorMatrix) -> ColorMatrix {
        var result = ColorMatrix.identity
        for r in 0..<4 {
            for c in 0..<4 {
                var sum: Float = 0
                for k in 0..<4 { sum += m[r * 4 + k] * first.m[k * 4 + c] }
                result.m[r * 4 + c] = sum
            }
            var o = offset[r]
            for k in 0..<4 { o += m[r * 4 + k] * first.offset[k] }
            result.offset[r] = o
        }
        return result
    }

    /// Columns as SIMD vectors, for `apply`.
    package var columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        (SIMD4(m[0], m[4], m[8], m[12]), SIMD4(m[1], m[5], m[9], m[13]),
         SIMD4(m[2], m[6], m[10], m[14]), SIMD4(m[3], m[7], m[11], m[15]))
    }
}
