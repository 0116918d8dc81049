import FilterCore

extension Primitives.Rotate: VulkanPrimitive {
    var inputReads: InputReads { .once }

    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        guard let mapping = Reorientation(quarterTurns: quarterTurns) else { throw PlanError("a rotation of \(quarterTurns) quarter turns") }
        encoder.push.set(ReorientParameters(mapping: mapping))
        encoder.add(.reorient)
    }
}
