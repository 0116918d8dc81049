import FilterCore

extension ParameterSweep {
    /// One primitive of each kind the catalogue lowers to (the parameter sweep's plans at 40×64), keyed by the
    /// primitive's case name, plus the box reduction the shrink at decode inserts. The backends' tests check each
    /// has a kernel; the optimizer's tests that the catalogue reaches every kind.
    package static func primitivesByKind() -> [String: Primitive] {
        var kinds: [String: Primitive] = ["boxReduce": .boxReduce(x: 2, y: 2)]
        let sizes = ["main": (40, 64), "other": (40, 64), "mask": (40, 64)]
        for id in FilterID.allCases {
            for (_, recipe) in recipes(for: id) {
                guard let lowered = try? recipe.lowering(inputSizes: sizes), lowered.questions.isEmpty else { continue }
                for node in lowered.plan.nodes { kinds[kindName(node.primitive)] = node.primitive }
            }
        }
        return kinds
    }

    /// One per-pixel operation of each kind the catalogue's plans hold (in `point` nodes and fused after other
    /// nodes), keyed by the case name, plus those the optimizer adds (a clamp, clearing transparent colour, a
    /// transfer between encodings). The backends' tests check each has a kernel.
    package static func pointOpsByKind() -> [String: PointOp] {
        var kinds: [String: PointOp] = ["clamp": .clamp(min: 0, max: 1), "clearTransparent": .clearTransparent,
                                        "transfer": .transfer(.encode)]
        let sizes = ["main": (40, 64), "other": (40, 64), "mask": (40, 64)]
        for id in FilterID.allCases {
            for (_, recipe) in recipes(for: id) {
                guard let lowered = try? recipe.lowering(inputSizes: sizes), lowered.questions.isEmpty else { continue }
                for node in lowered.plan.nodes {
                    var ops = node.post
                    if case .point(let steps) = node.primitive { ops += steps }
                    for op in ops { kinds[String(String(describing: op).prefix { $0 != "(" })] = op }
                }
            }
        }
        return kinds
    }

    /// The primitive's case name (`separableConvolution`).
    package static func kindName(_ primitive: Primitive) -> String {
        String(String(describing: primitive).prefix { $0 != "(" })
    }
}
