import FilterCore

extension Primitives.SeparableConvolution: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        let node = build.node
        if let (format, source, unrounded) = node.representation.fixedPointLayout,
           let h = FixedPointTaps(horizontal), let v = FixedPointTaps(vertical) {
            return FixedPointBlur.taps(horizontal: h, vertical: v).stages(node, format: format, source: source,
                                                                         unrounded: unrounded, input: build.inputs[0],
                                                                         stats: build.stats)
        }
        let h = build.connected(HorizontalConvolutionStage(taps: horizontal, samples: build.sampleReader,
                                                           node: node.withoutPost, stats: build.stats))
        return build.connected(VerticalConvolutionStage(taps: vertical, node: node, stats: build.stats), to: [h])
    }
}
