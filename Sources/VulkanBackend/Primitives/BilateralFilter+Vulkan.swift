import FilterCore

extension Primitives.BilateralFilter: VulkanPrimitive {
    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        let taps = bilateral.taps
        encoder.push.set(BilateralParameters(taps: taps.count, rangeScale: bilateral.rangeScale))
        encoder.add(.bilateral, params: taps.flatMap { [Float($0.dx), Float($0.dy), $0.weight] })
    }
}
