import FilterCore

extension Primitives.Generate: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        let space = encoder.space
        var coverage: [Float] = []
        switch generator {
        case .solid(let c):
            encoder.push.set(SolidParameters(colour: c.working(space)))
        case let .linear(x0, y0, x1, y1, from, to):
            encoder.push.set(LinearGradientParameters(from: from.working(space), to: to.working(space),
                                                      line: SIMD4(x0, y0, x1, y1)))
        case let .radial(cx, cy, radius, from, to):
            encoder.push.set(RadialGradientParameters(from: from.working(space), to: to.working(space), centre: (cx, cy),
                                                      radius: radius))
        case let .checkerboard(size, first, second):
            encoder.push.set(CheckerboardParameters(size: size, first: first.working(space), second: second.working(space)))
        case .text(let block):
            encoder.push.set(TextParameters(x: block.x, y: block.y, width: block.width, height: block.height,
                                            colour: block.color.working(space)))
            coverage = block.coverage.map { Float($0) / 255 }
        }
        encoder.add(.generate, reading: [], params: coverage)
    }
}
