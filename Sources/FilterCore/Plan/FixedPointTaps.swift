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

/// Whether 8-bit samples of `format` are their own working values, scaled, in `space`: opaque, no profile between
/// (the planner checks that), and the sRGB working space, where a working value is the code ÷ 255. A fixed-point
/// filter on them computes what the float path computes.
package func samplesAreWorkingValues(_ format: PixelFormat, _ space: WorkingSpace) -> Bool {
    format.depth == 8 && !format.isFloat && !format.hasAlpha && space == .srgb
}
