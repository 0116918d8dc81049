import FilterCore

extension Primitives.Convolve: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(ConvolveParameters(size: size, preserveAlpha: preserveAlpha, bias: bias))
        let tiled = encoder.tiling.convolution
        encoder.add(tiled ? .convolveTiled : .convolve, params: kernel, groups: tiled ? encoder.squareTiles : nil)
    }
}
