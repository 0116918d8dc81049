import FilterCore

extension Primitives.UnsharpCombine: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        if case .samples = build.node.representation, case .fixedPoint = build.inputNodes[1].representation {
            return build.connected(FixedUnsharpStage(amount: amount, threshold: threshold, node: build.node,
                                                     stats: build.stats))
        }
        return build.connected(UnsharpCombineStage(amount: amount, threshold: threshold, node: build.node,
                                                   stats: build.stats))
    }
}
