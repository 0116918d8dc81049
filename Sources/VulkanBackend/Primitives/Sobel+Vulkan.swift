import FilterCore

extension Primitives.Sobel: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.add(.sobel)
    }
}
