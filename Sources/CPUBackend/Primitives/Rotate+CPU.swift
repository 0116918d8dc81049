import FilterCore

extension Primitives.Rotate: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        guard let mapping = Reorientation(quarterTurns: quarterTurns) else { throw PlanError("a rotation of \(quarterTurns) quarter turns") }
        return build.connected(ReorientStage(mapping, input: build.inputNodes[0], node: build.node, stats: build.stats))
    }
}
