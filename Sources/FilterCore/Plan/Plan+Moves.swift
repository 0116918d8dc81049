/// A chain of sample moves (crops, flips, quarter turns, transposes) read as one map: output pixel (X, Y) copies
/// input pixel (x0 + dx·X, y0 + dy·Y), or (x0 + dx·Y, y0 + dy·X) when `swap`. An encoder that stores the image in
/// its own planes (a JPEG's Y, Cb, Cr) can then move those planes instead of decoded pixels.
package struct SampleMoveMap: Equatable, Sendable {
    package var swap: Bool
    package var x0: Int, y0: Int
    package var dx: Int, dy: Int
    /// The output's size.
    package var width: Int, height: Int

    /// Whether the move reads its input out of order (a vertical flip, a turn, a transpose): a strip-wise render
    /// must hold the whole input, so moving the file's planes instead saves memory as well as conversions.
    package var holdsWhole: Bool { swap || dy < 0 }

    /// `x' = a·X + b·Y + e`, `y' = c·X + d·Y + f`: one node's map from its output to its input position.
    private struct Affine {
        var a: Int, b: Int, c: Int, d: Int, e: Int, f: Int
        static let identity = Affine(a: 1, b: 0, c: 0, d: 1, e: 0, f: 0)
        /// `inner` after `self`: self maps output → middle, inner maps middle → input.
        func then(_ inner: Affine) -> Affine {
            Affine(a: inner.a * a + inner.b * c, b: inner.a * b + inner.b * d,
                   c: inner.c * a + inner.d * c, d: inner.c * b + inner.d * d,
                   e: inner.a * e + inner.b * f + inner.e, f: inner.c * e + inner.d * f + inner.f)
        }
    }

    /// The map of a node on an input of `w`×`h`, nil when it is not a sample move. The same positions as
    /// `ReorientStage` and `CropStage` copy.
    private static func map(of primitive: Primitive, inputWidth w: Int, inputHeight h: Int) -> Affine? {
        switch primitive {
        case let .crop(x, y): return Affine(a: 1, b: 0, c: 0, d: 1, e: x, f: y)
        case .flip(let horizontal):
            return horizontal ? Affine(a: -1, b: 0, c: 0, d: 1, e: w - 1, f: 0) : Affine(a: 1, b: 0, c: 0, d: -1, e: 0, f: h - 1)
        case .rotate(let turns):
            switch turns {
            case 1: return Affine(a: 0, b: 1, c: -1, d: 0, e: 0, f: h - 1)        // in(Y, h − 1 − X)
            case 2: return Affine(a: -1, b: 0, c: 0, d: -1, e: w - 1, f: h - 1)
            case 3: return Affine(a: 0, b: -1, c: 1, d: 0, e: w - 1, f: 0)        // in(w − 1 − Y, X)
            default: return nil
            }
        case .transpose: return Affine(a: 0, b: 1, c: 1, d: 0, e: 0, f: 0)
        default: return nil
        }
    }

    /// The plan's output as a chain of sample moves from one source, with the source's name; nil when any node on
    /// the way does anything else (or applies per-pixel steps).
    package init?(_ plan: Plan) {
        var index = plan.output
        var composed = Affine.identity
        while true {
            let node = plan.nodes[index]
            guard node.post.isEmpty else { return nil }
            if case .source = node.primitive { break }
            guard node.inputs.count == 1 else { return nil }
            let input = plan.nodes[node.inputs[0]]
            guard let step = Self.map(of: node.primitive, inputWidth: input.width, inputHeight: input.height) else {
                return nil
            }
            composed = composed.then(step)
            index = node.inputs[0]
        }
        let out = plan.nodes[plan.output], m = composed
        swap = m.a == 0
        x0 = m.e
        y0 = m.f
        dx = swap ? m.b : m.a
        dy = swap ? m.c : m.d
        width = out.width
        height = out.height
        source = index
    }

    /// The index of the source node the moves read.
    package var source: Int
}

/// The plan's output as one affine resampling of a source and nothing else, by a map that shrinks nowhere (a
/// rotation by any angle, a shear, an enlargement): a JPEG's Y, Cb, Cr planes can each be resampled by it where the
/// arithmetic is on gamma-encoded codes (the sRGB working space; JFIF's colour conversion is affine), the taps
/// bilinear or bicubic and the background opaque (`planeTaps`, `JPEGPlaneMoves`). Nil for any other plan.
package struct SampleWarp: Equatable, Sendable {
    /// Output pixel position → input position, corner origin.
    package var map: WarpMap
    package var kernel: ResampleKernel
    package var background: RGBA
    package var workingSpace: WorkingSpace
    /// The output's size.
    package var width: Int, height: Int
    /// The index of the source node the resampling reads.
    package var source: Int

    package init?(_ plan: Plan) {
        let node = plan.nodes[plan.output]
        guard node.post.isEmpty, node.inputs.count == 1, case let .warp(map, kernel, background) = node.primitive,
              map.isAffine else { return nil }
        let scale = map.kernelScale
        let input = plan.nodes[node.inputs[0]]
        guard scale.x < 1 + 1e-9, scale.y < 1 + 1e-9, case .source = input.primitive, input.post.isEmpty else { return nil }
        self.map = map
        self.kernel = kernel
        self.background = background
        workingSpace = plan.workingSpace
        width = node.width
        height = node.height
        source = node.inputs[0]
    }

    /// The taps per axis (2 bilinear, 4 bicubic) where the planes can be resampled: nil in the linear working space,
    /// for other kernels and onto a background that is not opaque.
    package var planeTaps: Int? {
        guard workingSpace == .srgb, background.a >= 1 else { return nil }
        switch kernel {
        case .bilinear: return 2
        case .bicubic: return 4
        default: return nil
        }
    }

    /// The background's sRGB codes (0–255).
    package var backgroundCodes: SIMD3<Float> {
        let working = background.working(.srgb)
        return SIMD3(working[0], working[1], working[2]).clamped(lowerBound: SIMD3(repeating: 0),
                                                                 upperBound: SIMD3(repeating: 1)) * 255
    }
}
