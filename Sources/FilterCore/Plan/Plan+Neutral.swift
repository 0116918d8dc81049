/// Whether a plan's result has no colour (red, green and blue equal in every pixel): then it is written as grey,
/// as libvips and OpenCV write a grey result — a third of the samples to encode and store, the same picture.
extension Plan {
    /// True when every pixel of the output has R = G = B whatever the pixels of the sources, given which sources
    /// are grey. Conservative: false where a step might make colour.
    package func outputIsNeutral(sourceIsGrey: [String: Bool]) -> Bool {
        carriedForward { index, inputs in
            let node = nodes[index]
            // A source's one "input" is whether its file is grey.
            let given = node.primitive.sourceName.map { [sourceIsGrey[$0] ?? false] } ?? inputs
            let result = node.primitive.descriptor.keepsNeutral(given)
            return node.post.reduce(result) { $1.keepsNeutral(from: $0) }
        }
    }
}

extension PointOp {
    /// Whether the step's result is neutral, given whether its input is: a step that makes grey (a matrix whose
    /// three colour rows are equal, a threshold) always; one that treats the channels alike keeps it.
    func keepsNeutral(from neutral: Bool) -> Bool {
        switch self {
        case .matrix(let matrix):
            let m = matrix.m, o = matrix.offset
            let equalOffsets = o[0] == o[1] && o[0] == o[2]
            var sameRows = true
            for c in 0..<4 where m[c] != m[4 + c] || m[c] != m[8 + c] { sameRows = false }
            if sameRows { return equalOffsets }
            // On equal channels a row gives (its three colour coefficients' sum)·v + its alpha coefficient·α.
            // Equal to float rounding: a saturation matrix's rows sum to 1 by different roundings.
            let sums: [Float] = (0..<3).map { r in m[4 * r] + m[4 * r + 1] + m[4 * r + 2] }
            let sameSums = abs(sums[0] - sums[1]) <= 1e-6 && abs(sums[0] - sums[2]) <= 1e-6
            let sameAlpha = m[3] == m[7] && m[3] == m[11]
            return neutral && sameSums && sameAlpha && equalOffsets
        case .threshold: return true
        case let .curves(_, red, green, blue): return neutral && red == nil && green == nil && blue == nil
        case .gamma, .levels, .posterize, .clamp, .clearTransparent, .transfer, .vignette, .vibrance:
            // Vibrance moves each channel from the luminance by a factor of their spread: none on grey.
            return neutral
        case .lut: return false
        }
    }
}

extension RGBA {
    var isNeutral: Bool { r == g && g == b }
}
