import FilterCore

extension Primitives.Generate: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        GeneratorStage(generator, space: build.space, node: build.node, stats: build.stats)
    }
}
