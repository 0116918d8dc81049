import FilterCore

extension Primitives.Blend: VulkanPrimitive {
    var inputReads: InputReads { .atItsPixel }

    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(BlendParameters(mode: mode, opacity: opacity))
        encoder.add(.blend)
    }
}
