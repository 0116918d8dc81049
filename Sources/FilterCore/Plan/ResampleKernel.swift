import Foundation
import Synchronization

/// Reconstruction filters for `resize`. Downscaling widens the kernel by the scale factor, so every input pixel
/// contributes (no aliasing at 1/20); sample centres sit at (i + ½)·in/out − ½.
public enum ResampleKernel: String, CaseIterable, Sendable {
    case nearest, bilinear, bicubic, lanczos3

    /// Half-width of the kernel at scale 1.
    package var radius: Double {
        switch self {
        case .nearest: return 0.5
        case .bilinear: return 1
        case .bicubic: return 2
        case .lanczos3: return 3
        }
    }

    /// Kernel value at distance `x` (in input pixels at scale 1). Bicubic is Catmull–Rom (a = −0.5).
    package func weight(_ x: Double) -> Double {
        let x = abs(x)
        switch self {
        case .nearest: return x < 0.5 ? 1 : 0
        case .bilinear: return max(0, 1 - x)
        case .bicubic:
            let a = -0.5
            if x < 1 { return (a + 2) * x * x * x - (a + 3) * x * x + 1 }
            if x < 2 { return a * x * x * x - 5 * a * x * x + 8 * a * x - 4 * a }
            return 0
        case .lanczos3:
            if x < 1e-9 { return 1 }
            if x >= 3 { return 0 }
            let px = Double.pi * x
            return 3 * sin(px) * sin(px / 3) / (px * px)
        }
    }
}

/// Per-output-sample taps for resampling one axis from `inSize` to `outSize` samples, edges clamped.
package struct ResampleWeights: Sendable {
    package let outSize: Int
    /// Taps per output sample (the same for every sample; unused taps have weight 0).
    package let taps: Int
    /// `outSize × taps` input indices, already clamped to the input.
    package let indices: [Int32]
    /// `outSize × taps` weights, each row summing to 1.
    package let weights: [Float]

    /// With `reduced`, the input is a box reduction (by `factor`) of an image `originalSize` long: sample centres
    /// and the kernel's width follow that image, so the result approximates resampling it directly.
    ///
    /// Weights already made for the same sizes are reused (`kept`): a service makes the same thumbnail sizes from the
    /// same camera sizes over and over, and a render's planner and stages each ask for its weights.
    package init(kernel: ResampleKernel, inSize: Int, outSize: Int, reduced: BoxReduction? = nil) {
        let key = Key(kernel: kernel, inSize: inSize, outSize: outSize, reduced: reduced)
        if let kept = Self.kept.withLock({ $0.weights[key] }) {
            self = kept
            return
        }
        self.init(making: kernel, inSize: inSize, outSize: outSize, reduced: reduced)
        let made = self
        Self.kept.withLock { kept in
            let bytes = made.indices.count * 8
            guard bytes <= Self.keptBytes else { return }
            if kept.bytes + bytes > Self.keptBytes { kept = Kept() }
            kept.weights[key] = made
            kept.bytes += bytes
        }
    }

    private struct Key: Hashable {
        let kernel: ResampleKernel
        let inSize: Int, outSize: Int
        let reduced: BoxReduction?
    }

    private struct Kept {
        var weights: [Key: ResampleWeights] = [:]
        var bytes = 0
    }

    /// At most this many bytes of weights are kept; past it the kept ones are dropped and kept anew (a service's
    /// few sizes soon return).
    private static let keptBytes = 8 << 20
    private static let kept = Mutex(Kept())

    /// The weights made afresh, whether or not the same are kept.
    package init(making kernel: ResampleKernel, inSize: Int, outSize: Int, reduced: BoxReduction?) {
        self.outSize = outSize
        let factor = reduced?.boxWidth ?? 1
        // Input pixels per output pixel, in the original image and in the (reduced) input.
        let step = Double(reduced?.originalSize ?? inSize) / Double(outSize)
        let ratio = step / factor
        if kernel == .nearest {
            taps = 1
            indices = (0..<outSize).map { Int32(min(inSize - 1, Int((Double($0) + 0.5) * ratio))) }
            weights = [Float](repeating: 1, count: outSize)
            return
        }
        let scale = max(1, ratio)
        let support = kernel.radius * scale
        let taps = Self.tapCount(kernel: kernel, ratio: ratio)
        self.taps = taps
        var indices = [Int32](repeating: 0, count: outSize * taps)
        var weights = [Float](repeating: 0, count: outSize * taps)
        var raw = [Double](repeating: 0, count: taps)
        for i in 0..<outSize {
            // Centre in original pixels, then in input pixels (box j covers original pixels factor·j ..< factor·(j+1),
            // factor being the box's width).
            let centre = ((Double(i) + 0.5) * step - 0.5 - (factor - 1) / 2) / factor
            let first = Int(floor(centre - support)) + 1
            for t in 0..<taps { raw[t] = kernel.weight((Double(first + t) - centre) / scale) }
            let sum = raw.reduce(0, +)
            for t in 0..<taps {
                indices[i * taps + t] = Int32(min(max(first + t, 0), inSize - 1))
                weights[i * taps + t] = Float(sum != 0 ? raw[t] / sum : 0)
            }
        }
        self.indices = indices
        self.weights = weights
    }

    /// Taps per output for `kernel` at `ratio` input samples per output sample (of the input: a box reduction's).
    package static func tapCount(kernel: ResampleKernel, ratio: Double) -> Int {
        kernel == .nearest ? 1 : Int(ceil(kernel.radius * max(1, ratio) * 2)) + 1
    }

    /// Input range needed for outputs `range` (for strip scheduling).
    package func inputRange(for range: Range<Int>) -> Range<Int> {
        guard !range.isEmpty else { return 0..<0 }
        var lo = Int32.max, hi = Int32.min
        for i in range {
            for t in 0..<taps where weights[i * taps + t] != 0 || taps == 1 {
                lo = min(lo, indices[i * taps + t])
                hi = max(hi, indices[i * taps + t])
            }
        }
        if lo > hi { return Int(indices[range.lowerBound * taps])..<Int(indices[range.lowerBound * taps]) + 1 }
        return Int(lo)..<Int(hi) + 1
    }
}

extension ResampleKernel {
    /// The one-axis passes that resample a w×h image to outW×outH, each with the size it produces. A shrink in
    /// height goes first: the vertical pass is a weighted sum of whole rows, vectorised along them, while the
    /// horizontal one gathers taps pixel by pixel; done first, the vertical pass leaves the horizontal one only the
    /// output's rows (a 3000×2000 photo to 400 px: 267 rows to gather, not 2000). (The optimizer puts a shrink's
    /// horizontal pass first where both can run in fixed point: `Optimizer.shrinkInFixedPointOrder`.)
    package static func passes(from size: (Int, Int), to out: (Int, Int)) -> [(axis: Primitive.Axis, width: Int, height: Int)] {
        let (w, h) = size, (outW, outH) = out
        var passes = [(axis: Primitive.Axis, width: Int, height: Int)]()
        if outH < h {
            passes.append((.vertical, w, outH))
            if outW != w { passes.append((.horizontal, outW, outH)) }
            return passes
        }
        if outW != w { passes.append((.horizontal, outW, h)) }
        if outH != h { passes.append((.vertical, outW, outH)) }
        return passes
    }
}
