/// Whether a plan's result has no colour (red, green and blue equal in every pixel): then it is written as grey,
/// as libvips and OpenCV write a grey result — a third of the samples to encode and store, the same picture.
extension Plan {
    /// True when every pixel of the output has R = G = B whatever the pixels of the sources, given which sources
    /// are grey. Conservative: false where a step might make colour.
    package func outputIsNeutral(sourceIsGrey: [String: Bool]) -> Bool {
        carriedForward { node, inputs in
            let result: Bool
            switch node.primitive {
            case .source(let name): result = sourceIsGrey[name] ?? false
            case .sobel: result = true
            case .point(let ops): result = ops.reduce(inputs[0]) { $1.keepsNeutral(from: $0) }
            case .pad(_, _, let colour): result = inputs[0] && colour.isNeutral
            case .warp(_, _, let background): result = inputs[0] && background.isNeutral
            case .blend(let mode, _):
                // Separable modes treat the channels alike; the others mix them.
                result = inputs.allSatisfy { $0 } && ![.hue, .saturation, .color, .luminosity].contains(mode)
            case .blendWithMask: result = inputs[0] && inputs[1]  // the mask only weighs the two
            case .generate(let generator):
                switch generator {
                case .solid(let c): result = c.isNeutral
                case .text(let block): result = block.color.isNeutral
                case .linear(_, _, _, _, let a, let b), .radial(_, _, _, let a, let b), .checkerboard(_, let a, let b):
                    result = a.isNeutral && b.isNeutral
                }
            case .separableConvolution, .boxBlur, .convolve, .unsharpCombine, .sharpenLuminance, .median, .morphology, .lineBlur, .bilateral, .toneAdjust, .resample,
                 .boxReduce, .crop, .flip, .rotate, .transpose:
                // Each channel by the same rule (the luminance sharpen adds one amount to all three).
                result = inputs.allSatisfy { $0 }
            }
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
