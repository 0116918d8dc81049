import FilterCore

extension Primitives.BoxReduce: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(BoxReduceStage(x: x, y: y, input: build.inputNodes[0], node: build.node, stats: build.stats))
    }
}
