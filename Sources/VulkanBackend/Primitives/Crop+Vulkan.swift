import FilterCore

extension Primitives.Crop: VulkanPrimitive {
    var inputReads: InputReads { .once }

    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(CropParameters(x: x, y: y))
        encoder.add(.crop)
    }
}
