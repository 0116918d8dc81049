import FilterCore

extension Primitives.Rotate: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        let mapping: ReorientStage.Mapping = quarterTurns == 1 ? .rotate90 : (quarterTurns == 2 ? .rotate180 : .rotate270)
        return build.connected(ReorientStage(mapping, input: build.inputNodes[0], node: build.node, stats: build.stats))
    }
}
