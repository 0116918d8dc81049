import FilterCore

extension Primitives.Flip: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(ReorientStage(horizontal ? .flipHorizontal : .flipVertical, input: build.inputNodes[0],
                                      node: build.node, stats: build.stats))
    }
}
