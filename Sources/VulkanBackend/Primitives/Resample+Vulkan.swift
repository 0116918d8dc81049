import FilterCore

extension Primitives.Resample: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        let input = encoder.plan.nodes[encoder.node.inputs[0]], node = encoder.node
        let vertical = axis == .vertical
        let weights = ResampleWeights(kernel: kernel, inSize: vertical ? input.height : input.width,
                                      outSize: vertical ? node.height : node.width, reduced: reduced)
        encoder.push.set(ResampleParameters(taps: weights.taps, vertical: vertical))
        encoder.add(.resample, params: weights.indices.map { Float($0) } + weights.weights)
    }
}
