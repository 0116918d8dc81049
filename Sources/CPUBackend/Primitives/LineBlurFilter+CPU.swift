import FilterCore

extension Primitives.LineBlurFilter: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(LineBlurStage(blur, node: build.node, stats: build.stats))
    }
}
