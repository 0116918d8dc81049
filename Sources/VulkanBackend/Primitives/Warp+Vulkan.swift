import FilterCore

extension Primitives.Warp: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(WarpParameters(map: map, scale: map.kernelScale, background: background.working(encoder.space),
                                        kernel: kernel))
        // The projective row (0, 0, 1 for an affine map) and the widening bound, in the parameter block.
        encoder.add(.warp, params: [Float(map.g), Float(map.h), Float(map.i), Float(WarpMap.maxWidening)])
    }
}
