import FilterCore

extension Primitives.Flip: VulkanPrimitive {
    var inputReads: InputReads { .once }

    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(ReorientParameters(mapping: horizontal ? .flipHorizontal : .flipVertical))
        encoder.add(.reorient)
    }
}
