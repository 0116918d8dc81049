import FilterCore

extension Primitives.Blend: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(BlendParameters(mode: mode, opacity: opacity))
        encoder.add(.blend)
    }
}
