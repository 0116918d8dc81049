import FilterCore

extension Primitives.BlendWithMask: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(BlendWithMaskStage(inputs: build.inputs, encodedMask: coverage && build.space == .linear,
                                           node: build.node, space: build.space, stats: build.stats))
    }
}
