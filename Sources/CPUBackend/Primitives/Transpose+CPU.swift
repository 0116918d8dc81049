import FilterCore

extension Primitives.Transpose: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(ReorientStage(.transpose, input: build.inputNodes[0], node: build.node, stats: build.stats))
    }
}
