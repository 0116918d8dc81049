import FilterCore

extension Primitives.SharpenLuminance: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(SharpenLuminanceParameters(amount: amount))
        encoder.add(.sharpenLuminance)
    }
}
