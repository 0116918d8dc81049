import FilterCore

extension Primitives.Crop: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(CropParameters(x: x, y: y))
        encoder.add(.crop)
    }
}
