import FilterCore

extension Primitives.PointSteps: VulkanPrimitive {
    var inputReads: InputReads { .atItsPixel }

    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        let kernel = PointKernelSource(ops)
        encoder.add(.point, source: kernel.source, params: kernel.params)
    }
}
