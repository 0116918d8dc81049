import FilterCore

extension Primitives.MorphologyFilter: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(MorphologyStage(morphology, node: build.node, stats: build.stats))
    }
}
