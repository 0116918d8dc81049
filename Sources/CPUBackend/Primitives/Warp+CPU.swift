import FilterCore

extension Primitives.Warp: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(WarpStage(map: map, kernel: kernel, background: background.working(build.space),
                                  input: build.inputNodes[0], node: build.node, space: build.space, stats: build.stats))
    }
}
