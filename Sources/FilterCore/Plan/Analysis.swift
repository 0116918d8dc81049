/// A question a filter asks about its input's pixels before it can be lowered: where the interesting part of a
/// photo lies (a smart crop), where its border ends (trim). Lowering cannot answer it — no pixel exists yet — so the
/// filter records the question with the plan that renders its input and lowers provisionally; the renderer answers
/// with a small render of that plan (`AnalysisRender`), and lowers again with the answer. Each recipe node asks at
/// most once, so a recipe with n asking nodes lowers n + 1 times.
package struct AnalysisRequest: Sendable {
    /// The recipe node that asks (its id); its answer is filed under it.
    package let node: String
    package let question: AnalysisQuestion
    /// Renders the asking filter's input, as lowered so far (only its ancestors).
    package let input: Plan
}

package enum AnalysisQuestion: Sendable, Equatable {
    /// Where a `width`×`height` window of the input, once scaled to `scaledWidth`×`scaledHeight`, holds the most
    /// of what `strategy` looks for. Answered with `.offset` in scaled pixels.
    case cropWindow(strategy: CropStrategy, width: Int, height: Int, scaledWidth: Int, scaledHeight: Int)
    /// The bounding box of the pixels that differ from the background by more than `threshold` 8-bit codes after a
    /// 3×3 median (`background` nil: the top-left pixel). Answered with `.rect`, the whole image when nothing differs.
    case trim(threshold: Double, background: RGBA?)
    /// The `clipLow` and `clipHigh` percentiles of each of R, G and B in the 8-bit sRGB-encoded histogram.
    /// Answered with `.range` in 0...1.
    case histogramRange(clipLow: Double, clipHigh: Double)
}

/// How a smart crop measures interest (libvips's `VipsInteresting` definitions).
package enum CropStrategy: String, Sendable, CaseIterable {
    /// Edges of the lightness, skin tones and saturated colour, pooled and blurred; the window centred on the peak.
    case attention
    /// Slices of least histogram entropy are cut from the edges until the window is left.
    case entropy
}

package enum AnalysisAnswer: Sendable, Equatable {
    case offset(x: Int, y: Int)
    case rect(x: Int, y: Int, width: Int, height: Int)
    case range(low: [Double], high: [Double])
}

extension PlanBuilder {
    /// The answer to `question` about `input` for the node being lowered, or nil (the question recorded) when it has
    /// not been answered yet; the caller then lowers provisionally.
    package mutating func answer(_ question: AnalysisQuestion, about input: Ref) -> AnalysisAnswer? {
        if let answer = answers[origin] { return answer }
        requests.append(AnalysisRequest(node: origin, question: question,
                                        input: Plan(nodes: nodes, output: input.index, workingSpace: workingSpace).ancestors))
        return nil
    }
}

extension Plan {
    /// The plan with only the nodes its output depends on (indices renumbered, order kept).
    package var ancestors: Plan {
        var keep = Set([output]), pending = [output]
        while let index = pending.popLast() {
            for input in nodes[index].inputs where keep.insert(input).inserted { pending.append(input) }
        }
        var renumbered = [Int: Int]()
        var kept = [Node]()
        for (index, node) in nodes.enumerated() where keep.contains(index) {
            var node = node
            node.inputs = node.inputs.map { renumbered[$0]! }
            renumbered[index] = kept.count
            kept.append(node)
        }
        return Plan(nodes: kept, output: renumbered[output]!, workingSpace: workingSpace)
    }
}

extension Plan {
    /// Adds a node reading the output, which becomes the output.
    package mutating func append(_ primitive: Primitive, width: Int, height: Int, origin: String) {
        nodes.append(Node(primitive: primitive, inputs: [output], width: width, height: height, origin: origin, op: "analysis"))
        output = nodes.count - 1
    }

    /// Resamples the output to width×height (vertical pass first when it shrinks, as `resize` lowers).
    package mutating func appendResample(width: Int, height: Int, kernel: ResampleKernel, origin: String) {
        for pass in ResampleKernel.passes(from: (nodes[output].width, nodes[output].height), to: (width, height)) {
            append(.resample(axis: pass.axis, kernel: kernel), width: pass.width, height: pass.height, origin: origin)
        }
    }
}
