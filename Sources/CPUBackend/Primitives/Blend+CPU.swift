import FilterCore

extension Primitives.Blend: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(BlendStage(mode: mode, opacity: opacity, inputs: build.inputs, node: build.node, space: build.space,
                                   stats: build.stats))
    }
}
