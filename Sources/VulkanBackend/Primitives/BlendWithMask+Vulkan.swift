import FilterCore

extension Primitives.BlendWithMask: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(BlendMaskParameters(linearCoverage: coverage && encoder.space == .linear))
        encoder.add(.blendWithMask)
    }
}
