import FilterCore

extension Primitives.Warp: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(WarpParameters(map: map, scale: map.kernelScale, background: background.working(encoder.space),
                                        kernel: kernel))
        // The projective row (0, 0, 1 for an affine map) and the widening bound, in the parameter block, in the
        // order whose indices the shader reads by name.
        encoder.add(.warp, params: KernelConstants.WarpParameter.allCases.map { parameter -> Float in
            switch parameter {
            case .rowG: return Float(map.g)
            case .rowH: return Float(map.h)
            case .rowI: return Float(map.i)
            case .maxWidening: return Float(WarpMap.maxWidening)
            }
        })
    }
}
