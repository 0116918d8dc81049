import FilterCore

extension Primitives.Crop: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(CropStage(x: x, y: y, node: build.node, stats: build.stats))
    }
}
