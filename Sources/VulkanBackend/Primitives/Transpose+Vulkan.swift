import FilterCore

extension Primitives.Transpose: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(ReorientParameters(mapping: .transpose))
        encoder.add(.reorient)
    }
}
