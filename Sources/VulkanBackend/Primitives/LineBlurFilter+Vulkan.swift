import FilterCore

extension Primitives.LineBlurFilter: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        LineBlurKernelSource.configure(&encoder.push, blur)
        encoder.add(.lineBlur, source: LineBlurKernelSource.source(blur))
    }
}
