import FilterCore

extension Primitives.UnsharpCombine: VulkanPrimitive {
    var inputReads: InputReads { .atItsPixel }

    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(UnsharpParameters(amount: amount, threshold: threshold))
        encoder.add(.unsharpCombine)
    }
}
