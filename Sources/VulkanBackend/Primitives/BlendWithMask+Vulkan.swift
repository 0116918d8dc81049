import FilterCore

extension Primitives.BlendWithMask: VulkanPrimitive {
    var inputReads: InputReads { .atItsPixel }

    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(BlendMaskParameters(linearCoverage: coverage && encoder.space == .linear))
        encoder.add(.blendWithMask)
    }
}
