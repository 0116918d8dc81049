import FilterCore

extension Primitives.ToneAdjustFilter: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(ToneAdjustStage(tone, node: build.node, stats: build.stats))
    }
}
