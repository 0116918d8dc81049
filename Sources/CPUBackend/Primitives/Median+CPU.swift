import FilterCore

extension Primitives.Median: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(MedianStage(radius: radius, node: build.node, stats: build.stats))
    }
}
