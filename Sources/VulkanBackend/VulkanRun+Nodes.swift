import FilterCore

/// How each primitive becomes kernel invocations.
extension VulkanRun {
    func planNodes(uploaded: [String: (format: PixelFormat, buffer: DeviceBuffer)]) throws {
        var lastUse = [Int](repeating: -1, count: plan.nodes.count)
        for (i, node) in plan.nodes.enumerated() { for input in node.inputs { lastUse[input] = i } }
        lastUse[plan.output] = Int.max
        for (i, node) in plan.nodes.enumerated() {
            try planNode(node, index: i, uploaded: uploaded)
            for input in Set(node.inputs) where lastUse[input] == i { release(input) }
        }
    }

    private func release(_ node: Int) {
        if let buffer = results[node] { give(buffer) }
    }

    private func label(_ node: Plan.Node) -> String { "\(node.origin)\u{1F}\(node.op)" }

    private func push(_ node: Plan.Node) -> PushConstants {
        var push = PushConstants()
        let sizes = node.inputs.map { (Int32(plan.nodes[$0].width), Int32(plan.nodes[$0].height)) }
        let first = sizes.first ?? (Int32(node.width), Int32(node.height))
        push.size = SIMD4(Int32(node.width), Int32(node.height), first.0, first.1)
        if sizes.count > 1 { push.size2.x = sizes[1].0; push.size2.y = sizes[1].1 }
        if sizes.count > 2 { push.size2.z = sizes[2].0; push.size2.w = sizes[2].1 }
        return push
    }

    private func invocation(_ name: String, source: String? = nil, _ node: Plan.Node, output: DeviceBuffer,
                            inputs: [DeviceBuffer], push: PushConstants? = nil, params: [Float] = []) -> Invocation {
        Invocation(name: name, source: source ?? ShaderLibrary.source(name), output: output, inputs: inputs,
                   push: push ?? self.push(node), params: params,
                   groups: ((node.width + 15) / 16, (node.height + 15) / 16), label: label(node))
    }

    private func planNode(_ node: Plan.Node, index: Int, uploaded: [String: (format: PixelFormat, buffer: DeviceBuffer)]) throws {
        let inputs = node.inputs.map { results[$0]! }
        var push = self.push(node)
        if case .source(let name) = node.primitive {
            let (format, buffer) = uploaded[name]!
            if format == .rgba32f { results[index] = buffer; return }
            let output = try working(node)
            push.ints = SIMD4(Int32(format.channels), Int32(format.bytesPerSample), plan.workingSpace == .linear ? 1 : 0, 0)
            push.f0.x = format.bytesPerSample == 1 ? 1 / 255 : 1 / 65535
            invocations.append(invocation("unpack", node, output: output, inputs: [buffer], push: push))
            results[index] = output
            return
        }
        let output = try working(node)
        results[index] = output
        func add(_ name: String, params: [Float] = []) {
            invocations.append(invocation(name, node, output: output, inputs: inputs, push: push, params: params))
        }
        switch node.primitive {
        case .source:
            break
        case .point(let ops):
            let kernel = PointKernelSource(ops)
            invocations.append(invocation("point", source: kernel.source, node, output: output, inputs: inputs,
                                          push: push, params: kernel.params))
        case let .separableConvolution(horizontal, vertical):
            let temporary = try working(node)
            push.ints.x = Int32(horizontal.count)
            invocations.append(invocation("separable_horizontal", node, output: temporary, inputs: inputs, push: push,
                                          params: horizontal))
            var second = self.push(node)
            second.size.z = Int32(node.width); second.size.w = Int32(node.height)
            second.ints.x = Int32(vertical.count)
            invocations.append(invocation("separable_vertical", node, output: output, inputs: [temporary], push: second,
                                          params: vertical))
            give(temporary)
        case .boxBlur(let radius):
            let temporary = try working(node)
            push.ints = SIMD4(Int32(radius), 0, 0, 0)
            invocations.append(invocation("box", node, output: temporary, inputs: inputs, push: push))
            push.ints.y = 1
            invocations.append(invocation("box", node, output: output, inputs: [temporary], push: push))
            give(temporary)
        case let .convolve(kernel, size, bias):
            push.ints.x = Int32(size)
            push.f0.x = bias
            add("convolve", params: kernel)
        case let .unsharpCombine(amount, threshold):
            push.f0 = SIMD4(amount, threshold, 0, 0)
            add("unsharp_combine")
        case .sharpenLuminance(let amount):
            push.f0.x = amount
            add("sharpen_luminance")
        case .sobel:
            add("sobel")
        case .median(let radius):
            push.ints.x = Int32(radius)
            add("median")
        case let .resample(axis, kernel):
            let input = plan.nodes[node.inputs[0]]
            let vertical = axis == .vertical
            let weights = ResampleWeights(kernel: kernel, inSize: vertical ? input.height : input.width,
                                          outSize: vertical ? node.height : node.width)
            push.ints = SIMD4(Int32(weights.taps), vertical ? 1 : 0, 0, 0)
            add("resample", params: weights.indices.map { Float($0) } + weights.weights)
        case let .crop(x, y):
            push.ints = SIMD4(Int32(x), Int32(y), 0, 0)
            add("crop")
        case .flip(let horizontal):
            push.ints.x = horizontal ? 0 : 1
            add("reorient")
        case .rotate(let quarterTurns):
            push.ints.x = Int32(1 + quarterTurns)
            add("reorient")
        case .transpose:
            push.ints.x = 5
            add("reorient")
        case let .pad(top, left, color):
            push.ints = SIMD4(Int32(left), Int32(top), 0, 0)
            push.f0 = color.working(plan.workingSpace)
            add("pad")
        case let .blend(mode, opacity):
            push.ints.x = Int32(BlendMode.allCases.firstIndex(of: mode)!)
            push.f0.x = opacity
            add("blend")
        case .blendWithMask:
            add("blend_with_mask")
        case .generate(let generator):
            let space = plan.workingSpace
            switch generator {
            case .solid(let c):
                push.ints.x = 0
                push.f0 = c.working(space)
            case let .linear(x0, y0, x1, y1, from, to):
                push.ints.x = 1
                push.f0 = from.working(space); push.f1 = to.working(space)
                push.f2 = SIMD4(x0, y0, x1, y1)
            case let .radial(cx, cy, radius, from, to):
                push.ints.x = 2
                push.f0 = from.working(space); push.f1 = to.working(space)
                push.f2 = SIMD4(cx, cy, radius, 0)
            case let .checkerboard(size, first, second):
                push.ints = SIMD4(3, Int32(size), 0, 0)
                push.f0 = first.working(space); push.f1 = second.working(space)
            }
            add("generate")
        }
    }

    /// Packs the output's working values into stored samples of `format`, one 32-bit word per invocation.
    func pack(_ input: DeviceBuffer, into output: DeviceBuffer, node: Plan.Node, format: PixelFormat) -> Invocation {
        var push = PushConstants()
        let words = output.byteCount / 4
        push.size = SIMD4(Int32(node.width), Int32(node.height), Int32(node.width), Int32(node.height))
        push.ints = SIMD4(Int32(format.channels), Int32(format.bytesPerSample), plan.workingSpace == .linear ? 1 : 0,
                          Int32(words))
        let groups = (words + 255) / 256
        let x = min(groups, 65535)
        return Invocation(name: "pack", source: ShaderLibrary.source("pack"), output: output, inputs: [input],
                          push: push, params: [], groups: (x, (groups + x - 1) / x), label: "output\u{1F}pack")
    }
}
