/// A resample's taps along one axis as 16-bit fixed-point weights, for opaque 8-bit samples in the sRGB working space
/// (OpenCV resizes 8-bit images the same way): a horizontal pass keeps `fractionBits` bits below the code in 16-bit
/// rows, and the vertical pass over them rounds once, half up, and clamps to the samples' range, as the float path's
/// encoder does.
///
/// Each output's weights are multiples of 2⁻¹⁴ (signed: bicubic and Lanczos lobes are negative) summing to exactly 1,
/// so a flat region stays flat to the code. Each is within one unit of its exact value and their errors δw sum to
/// 0, so rounding them moves a pass by at most ½·Σ|δw|·(the range of its values): with `maxTaps` taps, 8·2⁻¹⁴·255
/// ≈ 0.125 of a code for the horizontal pass over samples, 8·2⁻¹⁴·1.4·255 ≈ 0.175 for the vertical one over rows
/// that may overshoot (Σ|w| ≤ 1.4), and the 16-bit rows' own rounding 1.4·2⁻⁷ ≈ 0.011: with the final rounding's ½,
/// a result is within 0.85 of a code of the float64 definition, inside the catalogue's one code. Six bits below
/// the code, not the blurs' seven, because a lobe's overshoot (Catmull–Rom's reaches 1.125 of the range, Lanczos
/// 3's 1.25) must fit a signed 16-bit value.
package struct FixedPointResample: Sendable {
    /// Taps per output, rounded up to an even count (the kernels take them in pairs); a padding tap has weight 0.
    package let taps: Int
    /// `outSize × taps` input indices, clamped to the input.
    package let indices: [Int32]
    /// `outSize × taps` weights in units of 2⁻¹⁴, each output's summing to 2¹⁴.
    package let weights: [Int16]
    /// The outputs whose taps read consecutive inputs (none clamped at an edge): the vector loop's span, which
    /// reads each pair of taps as two neighbouring pixels (a padding tap past the last reads one pixel beyond it).
    package let consecutive: Range<Int>

    package static let weightBits = 14
    package static let fractionBits = 6
    /// The most taps an output may have: every enlargement (bilinear, bicubic and Lanczos 3 take 3, 5 and 7), a
    /// shrink by up to 2.5 with Lanczos 3, 3.75 with bicubic, 7.5 with bilinear. Wider shrinks keep floats (their
    /// rounding would add up past the bound).
    package static let maxTaps = 16

    /// Whether a resample from `inSize` to `outSize` samples suits fixed point: no box reduction before it (its
    /// input is working values) and at most `maxTaps` taps.
    package static func fits(kernel: ResampleKernel, inSize: Int, outSize: Int, reduced: BoxReduction?) -> Bool {
        reduced == nil && outSize > 0
            && ResampleWeights.tapCount(kernel: kernel, ratio: Double(inSize) / Double(outSize)) <= maxTaps
    }

    /// `resample` in fixed point, or nil where it has more than `maxTaps` taps.
    package init?(_ resample: ResampleWeights) {
        guard resample.taps <= Self.maxTaps, resample.outSize > 0 else { return nil }
        let taps = (resample.taps + 1) / 2 * 2, one = 1 << Self.weightBits
        var indices = [Int32](repeating: 0, count: resample.outSize * taps)
        var weights = [Int16](repeating: 0, count: resample.outSize * taps)
        var runs = [Bool](repeating: false, count: resample.outSize)
        for i in 0..<resample.outSize {
            let base = i * resample.taps
            let exact = (0..<resample.taps).map { Double(resample.weights[base + $0]) * Double(one) }
            // Largest remainders: each weight rounded down, then the units still missing to those that lost most,
            // so every weight is within one unit of its exact value and they sum to 2¹⁴ exactly.
            var fixed = exact.map { Int($0.rounded(.down)) }
            let order = fixed.indices.sorted { exact[$0] - Double(fixed[$0]) > exact[$1] - Double(fixed[$1]) }
            let missing = one - fixed.reduce(0, +)
            guard missing >= 0, missing <= fixed.count, fixed.allSatisfy({ abs($0) < Int(Int16.max) }) else { return nil }
            for t in order.prefix(missing) { fixed[t] += 1 }
            for t in 0..<taps {
                indices[i * taps + t] = resample.indices[base + min(t, resample.taps - 1)]
                weights[i * taps + t] = t < resample.taps ? Int16(fixed[t]) : 0
            }
            let start = indices[i * taps]
            runs[i] = (0..<resample.taps).allSatisfy { indices[i * taps + $0] == start + Int32($0) }
        }
        self.taps = taps
        self.indices = indices
        self.weights = weights
        // Edges clamp, so the outputs reading consecutive inputs are the middle run.
        let first = runs.firstIndex(of: true) ?? 0
        consecutive = first..<(runs[first...].firstIndex(of: false) ?? resample.outSize)
    }
}
