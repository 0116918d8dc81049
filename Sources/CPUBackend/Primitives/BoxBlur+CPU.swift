import FilterCore

extension Primitives.BoxBlur: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        let node = build.node
        if case .samples(let format, let source) = node.representation {
            return FixedPointBlur.box(radius: radius).stages(node, format: format, source: source, input: build.inputs[0],
                                                             stats: build.stats)
        }
        let h = build.connected(HorizontalBoxStage(radius: radius, samples: build.sampleReader, node: node.withoutPost,
                                                   stats: build.stats))
        return build.connected(VerticalBoxStage(radius: radius, node: node, stats: build.stats), to: [h])
    }
}
