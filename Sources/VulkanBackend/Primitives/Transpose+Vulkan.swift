import FilterCore

extension Primitives.Transpose: VulkanPrimitive {
    var inputReads: InputReads { .once }

    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(ReorientParameters(mapping: .transpose))
        encoder.add(.reorient)
    }
}
