import FilterCore

extension Primitives.Median: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.add(.median, source: MedianKernelSource.source(radius: radius))
    }
}
