import FilterCore

extension Primitives.SharpenLuminance: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(SharpenLuminanceStage(amount: amount, node: build.node, stats: build.stats))
    }
}
