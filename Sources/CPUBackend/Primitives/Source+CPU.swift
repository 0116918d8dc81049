import FilterCore

extension Primitives.Source: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        guard let source = build.sources[name] else { throw PlanError("no image given for input \"\(name)\"") }
        return SourceStage(source: source, conversion: build.conversions[name], space: build.space, node: build.node,
                           stats: build.stats)
    }
}
