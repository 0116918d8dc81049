import FilterCore

extension Primitives.Rotate: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        let mappings: [KernelConstants.Reorientation] = [.rotate90, .rotate180, .rotate270]
        encoder.push.set(ReorientParameters(mapping: mappings[quarterTurns - 1]))
        encoder.add(.reorient)
    }
}
