import FilterCore

extension Primitives.PointSteps: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        let node = build.node, space = build.space
        if case .samples(let format, _) = node.representation, case .samples(let stored, _) = build.inputNodes[0].representation {
            // The plan's rule (`Plan.choosingRepresentations`): a table where the steps allow one, else the
            // steps on each row's working values, rounded to the node's samples.
            if stored == format && Plan.tabulates(ops, format: format) {
                return build.connected(TableStage(SampleTable(ops, format: format, space: space), node: node,
                                                  stats: build.stats))
            }
            return build.connected(SamplePointStage(ops, from: stored, space: space, node: node, stats: build.stats))
        }
        var stored: PixelFormat?
        if node.readsSamples, case .samples(let format, _) = build.inputNodes[0].representation { stored = format }
        return build.connected(PointStage(ops, reading: stored, space: space, node: node, stats: build.stats))
    }
}
