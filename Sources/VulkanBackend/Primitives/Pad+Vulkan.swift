import FilterCore

extension Primitives.Pad: VulkanPrimitive {
    var inputReads: InputReads { .once }

    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(PadParameters(left: left, top: top, colour: color.working(encoder.space)))
        encoder.add(.pad)
    }
}
