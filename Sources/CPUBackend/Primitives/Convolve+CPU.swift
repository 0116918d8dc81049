import FilterCore

extension Primitives.Convolve: CPUPrimitive {
    func stage(_ build: CPUNodeBuild) throws -> Stage {
        let node = build.node, stats = build.stats
        if case .samples(let format, let source) = node.representation {
            if bias == 0, let factors = fixedPointFactors {
                return FixedPointBlur.taps(horizontal: factors.row, vertical: factors.column)
                    .stages(node, format: format, source: source, input: build.inputs[0], stats: stats)
            }
            if let fixed = fixedPointKernel {
                return build.connected(FixedKernelStage(fixed, channels: format.channels, node: node, stats: stats))
            }
        }
        let samples = build.sampleReader
        // Opaque samples through a kernel that is a column times a row, with no bias: a separable blur's two
        // stages, each input row's horizontal pass made once (not once for every chunk whose window holds it).
        // Their alpha is the kernel's sum, which preserveAlpha's 1 is only where the kernel is normalised.
        if samples != nil, bias == 0, !preserveAlpha || abs(kernel.reduce(0, +) - 1) <= 1e-6,
           let factors = Self.factors(kernel, size: size) {
            let h = build.connected(HorizontalConvolutionStage(taps: factors.row, samples: samples, node: node.withoutPost,
                                                               stats: stats))
            return build.connected(VerticalConvolutionStage(taps: factors.column, node: node, stats: stats), to: [h])
        }
        return build.connected(ConvolveStage(kernel: kernel, size: size, bias: bias, preserveAlpha: preserveAlpha,
                                             samples: samples, opaque: build.opaqueInput, node: node, stats: stats))
    }
}
