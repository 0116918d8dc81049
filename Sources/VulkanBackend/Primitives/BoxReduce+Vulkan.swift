import FilterCore

extension Primitives.BoxReduce: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(BoxReduceParameters(x: x, y: y))
        encoder.add(.boxReduce)
    }
}
