import FilterCore

extension Primitives.BoxReduce: VulkanPrimitive {
    var inputReads: InputReads { .once }

    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(BoxReduceParameters(x: x, y: y))
        encoder.add(.boxReduce)
    }
}
