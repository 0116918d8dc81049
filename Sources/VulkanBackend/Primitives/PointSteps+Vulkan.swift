import FilterCore

extension Primitives.PointSteps: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        let kernel = PointKernelSource(ops)
        encoder.add(.point, source: kernel.source, params: kernel.params)
    }
}
