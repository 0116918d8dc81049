/// A blur's taps as 16-bit fixed-point weights, the representation OpenCV and libvips use for 8-bit images: where
/// a node's taps have them, the CPU filters opaque 8-bit samples in integers (`Primitives.SeparableConvolution`,
/// `Primitives.Convolve`), and `--explain` says so.
///
/// Each weight is a multiple of 2⁻¹⁴ and they sum to exactly 1, so a flat region stays flat to the code. The
/// horizontal pass keeps 7 bits below the sample (an error of at most 1/256 of a code) and the vertical pass rounds
/// once, half up, as the float path's encoder does. Rounding each weight moves the result by at most
/// ½·Σ|δw|·255 ≤ taps·2⁻¹⁵·128 codes, which `maxTaps` keeps under 0.2 of a code a pass, so a result stays within a
/// code of the float64 definition (the catalogue's 8-bit tolerance) wherever the float path's does.
package struct FixedPointTaps: Equatable, Sendable {
    /// The weights in units of 2⁻¹⁴, non-negative, summing to 2¹⁴.
    package let weights: [Int16]

    package static let fractionBits = 14
    /// The most taps a pass may have (radius 24: a Gaussian up to σ 8).
    package static let maxTaps = 49

    /// `taps` in fixed point, or nil where they do not suit it: a negative weight (the integer passes hold no sign),
    /// more than `maxTaps`, or a sum that is not 1 (an unnormalised kernel's result may leave the samples' range).
    package init?(_ taps: [Float]) {
        guard !taps.isEmpty, taps.count <= Self.maxTaps, taps.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return nil }
        let sum = taps.reduce(0, { $0 + Double($1) })
        guard abs(sum - 1) <= 1e-5 else { return nil }
        let one = 1 << Self.fractionBits
        // Largest remainders: each weight rounded down, then the units still missing go to those that lost the most
        // (the centre first among equals), so every weight is within one unit of its exact value.
        let exact = taps.map { Double($0) / sum * Double(one) }
        var weights = exact.map { Int($0.rounded(.down)) }
        let centre = taps.count / 2
        let order = weights.indices.sorted {
            let (a, b) = (exact[$0] - Double(weights[$0]), exact[$1] - Double(weights[$1]))
            return a != b ? a > b : abs($0 - centre) < abs($1 - centre)
        }
        for i in order.prefix(max(0, one - weights.reduce(0, +))) { weights[i] += 1 }
        guard weights.reduce(0, +) == one, weights.allSatisfy({ $0 >= 0 && $0 <= Int(Int16.max) }) else { return nil }
        self.weights = weights.map { Int16($0) }
    }
}

/// A square kernel that is not a column times a row (a sharpen, an edge or emboss kernel), in fixed point for opaque
/// 8-bit samples: each nonzero weight in units of 2^−`fractionBits` (signed; 14 bits, down to 10 where a weight
/// reaches 2 or more, so every weight fits 16 bits) and the bias in the same units of a code. The sum rounds half up and clamps
/// to the samples' range once, as the output would. Rounding the weights moves a result by at most Σ|δw|·255 codes;
/// a kernel whose rounding would move it by more than `maxError` stays in floats.
package struct FixedPointKernel: Equatable, Sendable {
    /// The nonzero taps: the kernel's column (dx) and row (dy) offsets from the centre and their weights.
    package let taps: [(dx: Int, dy: Int, weight: Int16)]
    package let fractionBits: Int
    /// The bias in units of 2^−fractionBits of a code.
    package let bias: Int32

    package static let maxTaps = 25
    /// The most the weights' rounding may move a result, in codes.
    package static let maxError = 0.2

    /// `kernel` (`size`×`size`, row by row) with `bias` (in working values), or nil where it does not suit fixed
    /// point: more than `maxTaps` nonzero weights, a weight of 32 or more, or weights whose rounding costs more than
    /// `maxError`.
    package init?(_ kernel: [Float], size: Int, bias: Float) {
        let nonzero = kernel.indices.filter { kernel[$0] != 0 }
        guard size > 0, kernel.count == size * size, nonzero.count <= Self.maxTaps, bias.isFinite,
              kernel.allSatisfy(\.isFinite), abs(bias) <= 4 else { return nil }
        let largest = Double(kernel.map { abs($0) }.max() ?? 0)
        var bits = 14
        while bits > 10 && largest * Double(1 << bits) > Double(Int16.max) { bits -= 1 }
        guard largest * Double(1 << bits) <= Double(Int16.max) else { return nil }
        let r = size / 2, unit = Double(1 << bits)
        taps = nonzero.map { (dx: $0 % size - r, dy: $0 / size - r, weight: Int16((Double(kernel[$0]) * unit).rounded())) }
        let error = zip(nonzero, taps).reduce(0.0) { $0 + abs(Double($1.1.weight) / unit - Double(kernel[$1.0])) } * 255
        guard error <= Self.maxError else { return nil }
        fractionBits = bits
        self.bias = Int32((Double(bias) * 255 * Double(1 << bits)).rounded())
    }

    package static func == (a: FixedPointKernel, b: FixedPointKernel) -> Bool {
        a.fractionBits == b.fractionBits && a.bias == b.bias && a.taps.elementsEqual(b.taps) { $0 == $1 }
    }
}

/// Whether 8-bit samples of `format` are their own working values, scaled, in `space`: opaque, no profile between
/// (the planner checks that), and the sRGB working space, where a working value is the code ÷ 255. A fixed-point
/// filter on them computes what the float path computes.
package func samplesAreWorkingValues(_ format: PixelFormat, _ space: WorkingSpace) -> Bool {
    format.depth == 8 && !format.isFloat && !format.hasAlpha && space == .srgb
}
