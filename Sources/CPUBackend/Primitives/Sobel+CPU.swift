import FilterCore

extension Primitives.Sobel: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(SobelStage(input: build.inputNodes[0], node: build.node, space: build.space, stats: build.stats))
    }
}
