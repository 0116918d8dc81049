import FilterCore

extension Primitives.Pad: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        build.connected(PadStage(top: top, left: left, fill: Self.pixel(color, build.node.representation, build.space),
                                 input: build.inputNodes[0], node: build.node, stats: build.stats))
    }

    /// One pixel of `colour` as `representation` holds it.
    private static func pixel(_ colour: RGBA, _ representation: Representation, _ space: WorkingSpace) -> [UInt8] {
        var working = colour.working(space)
        guard case .samples(let format, _) = representation else {
            return withUnsafeBytes(of: &working) { Array($0) }
        }
        var stored = [UInt8](repeating: 0, count: format.bytesPerPixel)
        withUnsafeMutablePointer(to: &working) { w in
            w.withMemoryRebound(to: Float.self, capacity: 4) {
                PixelConverter(format: format, space: space).encode($0, into: &stored, width: 1)
            }
        }
        return stored
    }
}
