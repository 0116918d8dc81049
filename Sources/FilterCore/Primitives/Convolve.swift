extension Primitives {
    /// A square odd kernel applied as a correlation, with W3C feConvolveMatrix's alpha rules.
    package struct Convolve: PrimitiveDescriptor {
        package var kernel: [Float]
        package var size: Int
        package var bias: Float
        package var preserveAlpha: Bool
        package var summary: String { "convolution \(size)×\(size)" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: size / 2) }
        package func taps(_ shape: NodeShape) -> Double { Double(size * size) }
        /// A kernel that is a column times a row of non-negative weights, normalised, without bias (a binomial, a
        /// box, a Gaussian written out) filters opaque 8-bit samples in the sRGB working space in fixed point, as a
        /// separable blur does; another of up to 25 nonzero weights (a sharpen, an edge kernel) as one pass of fixed
        /// point taps (`FixedPointKernel`). Elsewhere, on stored samples without alpha, the stage converts each row as it pads
        /// it: straight and premultiplied colour are the same there, and the photo is never held as rows of working
        /// floats of its own.
        package var onSamples: SampleAction {
            let fixed = bias == 0 && fixedPointFactors != nil || fixedPointKernel != nil
            return .fixedPoint({ format, space, _ in fixed && samplesAreWorkingValues(format, space) },
                               otherwise: { format, _ in !format.isFloat && !format.hasAlpha })
        }

        /// The kernel in fixed point taps for opaque samples, where its result's alpha is 1 there (it keeps alpha,
        /// or its weights sum to 1) and its weights suit it; nil where they do not.
        package var fixedPointKernel: FixedPointKernel? {
            guard preserveAlpha || abs(kernel.reduce(0, +) - 1) <= 1e-6 else { return nil }
            return FixedPointKernel(kernel, size: size, bias: bias)
        }

        /// The kernel's column and row factors as fixed-point taps, where it has them.
        package var fixedPointFactors: (column: FixedPointTaps, row: FixedPointTaps)? {
            guard size > 1, let factors = Self.factors(kernel, size: size) else { return nil }
            // A factor pair is fixed only up to a scale: normalise each to sum to 1.
            let (columnSum, rowSum) = (factors.column.reduce(0, +), factors.row.reduce(0, +))
            guard columnSum > 0, rowSum > 0, abs(Double(columnSum * rowSum) - 1) <= 1e-5,
                  let column = FixedPointTaps(factors.column.map { $0 / columnSum }),
                  let row = FixedPointTaps(factors.row.map { $0 / rowSum }) else { return nil }
            return (column, row)
        }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        /// Convolving alpha scales it by the kernel's sum.
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool {
            inputs[0] || (!preserveAlpha && abs(kernel.reduce(0, +) - 1) > 1e-6)
        }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { true }
    }
}

extension Primitives.Convolve {
    /// `kernel` (row by row) as column[j]·row[i], when every weight is that product within a millionth of the
    /// largest weight (float rounding of the factors is smaller); nil otherwise.
    package static func factors(_ kernel: [Float], size: Int) -> (column: [Float], row: [Float])? {
        guard let largest = kernel.indices.max(by: { abs(kernel[$0]) < abs(kernel[$1]) }), kernel[largest] != 0 else { return nil }
        let (j0, i0) = (largest / size, largest % size), pivot = Double(kernel[largest])
        let row = (0..<size).map { Double(kernel[j0 * size + $0]) }
        let column = (0..<size).map { Double(kernel[$0 * size + i0]) / pivot }
        for j in 0..<size {
            for i in 0..<size where abs(column[j] * row[i] - Double(kernel[j * size + i])) > 1e-6 * abs(pivot) {
                return nil
            }
        }
        return (column.map(Float.init), row.map(Float.init))
    }
}
