import FilterCore

extension Primitives.Resample: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        let node = build.node, input = build.inputNodes[0], stats = build.stats
        // The plan's choice (`Primitives.Resample.onSamples`): a horizontal pass held as samples or unrounded
        // fixed point, and a vertical pass finishing it, run in integers.
        let (inSize, outSize) = axis == .horizontal ? (input.width, node.width) : (input.height, node.height)
        func fixed() throws -> FixedPointResample {
            let weights = ResampleWeights(kernel: kernel, inSize: inSize, outSize: outSize, reduced: reduced)
            guard let fixed = FixedPointResample(weights) else {
                throw PlanError("node \(node.origin): the resample's taps do not suit fixed point, as the plan assumed")
            }
            return fixed
        }
        if axis == .horizontal, let (format, _, _) = node.representation.fixedPointLayout {
            return build.connected(FixedHorizontalResampleStage(try fixed(), inputWidth: inSize, channels: format.channels,
                                                                node: node, stats: stats))
        }
        if axis == .vertical, case .samples = node.representation, case .fixedPoint = input.representation {
            return build.connected(FixedVerticalResampleStage(try fixed(), node: node, stats: stats))
        }
        let stage: Stage = axis == .horizontal
            ? HorizontalResampleStage(kernel: kernel, inputWidth: input.width, reduced: reduced,
                                      samples: build.sampleReader, node: node, stats: stats)
            : VerticalResampleStage(kernel: kernel, inputHeight: input.height, reduced: reduced, input: input,
                                    node: node, stats: stats)
        return build.connected(stage)
    }
}
