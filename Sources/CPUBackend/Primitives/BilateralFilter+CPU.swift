import FilterCore

extension Primitives.BilateralFilter: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(BilateralStage(bilateral, node: build.node, stats: build.stats))
    }
}
