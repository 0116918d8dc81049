import FilterCore

/// How each primitive becomes kernel invocations, band by band.
extension VulkanRun {
    /// Plans every node the band needs, in topological order, freeing each buffer after its last consumer.
    func planBand(_ needed: [Range<Int>?], uploads: [String: DeviceBuffer], formats: [String: PixelFormat]) throws {
        let lastUse = plan.lastReaders(needed: needed)
        for (i, node) in plan.nodes.enumerated() {
            guard let rows = needed[i] else { continue }
            try planNode(i, rows: rows, needed: needed, uploads: uploads, formats: formats)
            for input in Set(node.inputs) where lastUse[input] == i { if let buffer = results[input] { give(buffer) } }
        }
    }

    /// Whether the primitive runs as two passes with a temporary buffer shaped like its input's band between them
    /// (beside the encoding below, which makes those passes).
    static func holdsTemporary(_ primitive: Primitive) -> Bool {
        switch primitive {
        case .separableConvolution, .boxBlur: return true
        case .morphology(let morphology): return MorphologyKernelSource.passes(morphology).count > 1
        case .source, .point, .convolve, .unsharpCombine, .sharpenLuminance, .sobel, .median, .lineBlur, .bilateral,
             .toneAdjust, .resample, .boxReduce, .crop, .flip, .rotate, .transpose, .warp, .pad, .blend, .blendWithMask,
             .generate:
            return false
        }
    }

    private func label(_ node: Plan.Node) -> String { "\(node.origin)\u{1F}\(node.op)" }

    /// Sizes and band rows of the node and of the inputs it reads.
    private func push(_ index: Int, rows: Range<Int>, needed: [Range<Int>?]) -> PushConstants {
        let node = plan.nodes[index]
        var push = PushConstants()
        let inputs = node.inputs.map { plan.nodes[$0] }
        let first = inputs.first.map { (Int32($0.width), Int32($0.height)) } ?? (Int32(node.width), Int32(node.height))
        push.size = SIMD4(Int32(node.width), Int32(node.height), first.0, first.1)
        if inputs.count > 1 { push.size2.x = Int32(inputs[1].width); push.size2.y = Int32(inputs[1].height) }
        if inputs.count > 2 { push.size2.z = Int32(inputs[2].width); push.size2.w = Int32(inputs[2].height) }
        let held = node.inputs.map { Int32(needed[$0]?.lowerBound ?? 0) }
        push.rows = SIMD4(Int32(rows.lowerBound), Int32(rows.count), held.first ?? 0, held.count > 1 ? held[1] : 0)
        push.rows2.x = held.count > 2 ? held[2] : 0
        return push
    }

    /// Work-group shape and count for a node's rows: 16×16, or for bands of fewer than 16 rows a wider, flatter
    /// shape of the same 256 invocations (256×1 for one row), so no group idles 15 of its 16 rows.
    static func launch(width: Int, rows: Int) -> (groups: (x: Int, y: Int), shape: (x: Int, y: Int)) {
        var tall = 1
        while tall < min(rows, 16) { tall *= 2 }
        let shape = (x: 256 / tall, y: tall)
        return (((width + shape.x - 1) / shape.x, (rows + shape.y - 1) / shape.y), shape)
    }

    private func planNode(_ index: Int, rows: Range<Int>, needed: [Range<Int>?], uploads: [String: DeviceBuffer],
                          formats: [String: PixelFormat]) throws {
        let node = plan.nodes[index]
        var push = self.push(index, rows: rows, needed: needed)
        let inputs: [CommandBatch.Binding?] = node.inputs.map { results[$0].map { CommandBatch.Binding(buffer: $0) } }
        let output = try working(index)
        results[index] = output
        let taps = WorkEstimate.taps(ofNode: index, in: plan)
        // Tiled kernels of 16×16 groups lay out their own invocations over the band, whatever its height.
        let squareTiles = ((node.width + 15) / 16, (rows.count + 15) / 16)
        /// One dispatch of the node: by default over its band into its buffer, the shape from `launch`, the cost its
        /// taps a pixel. A two-pass primitive's first pass writes `into` a temporary over the rows it covers
        /// (`over`), and a kernel that lays out its own invocations gives `groups` (keeping the source's shape).
        func add(_ kernel: Kernel, source: String? = nil, reading: [CommandBatch.Binding?]? = nil, params: [Float] = [],
                 into target: DeviceBuffer? = nil, over covered: Range<Int>? = nil, push given: PushConstants? = nil,
                 groups: (x: Int, y: Int)? = nil, perPixel: Double? = nil) {
            let covered = covered ?? rows
            let launch = Self.launch(width: node.width, rows: covered.count)
            steps.append(.dispatch(Invocation(
                kernel: kernel, source: source ?? ShaderLibrary.source(kernel),
                bindings: [CommandBatch.Binding(buffer: target ?? output)] + (reading ?? inputs), push: given ?? push,
                params: params, groups: groups ?? launch.groups, label: label(node),
                work: Double(node.width * covered.count) * (perPixel ?? taps), shape: groups == nil ? launch.shape : nil)))
        }
        switch node.primitive {
        case .source(let name):
            let format = formats[name]!, upload = uploads[name]!
            let rowBytes = node.width * format.bytesPerPixel
            if format == .rgba32f {
                // Working values already: copy the band's rows.
                steps.append(.copy(from: upload, to: output, sourceOffset: rows.lowerBound * rowBytes, destinationOffset: 0,
                                   bytes: rows.count * rowBytes, label: label(node)))
                return
            }
            let start = rows.lowerBound * rowBytes
            let alignment = context.limits.minStorageBufferOffsetAlignment
            let offset = start / alignment * alignment
            let range = min(upload.byteCount - offset, VulkanRun.wordAligned(start - offset + rows.count * rowBytes))
            push.set(UnpackParameters(channels: format.channels, bytesPerSample: format.bytesPerSample,
                                      linear: plan.workingSpace == .linear,
                                      unit: format.bytesPerSample == 1 ? 1 / 255 : 1 / 65535))
            push.rows.z = Int32(rows.lowerBound)
            push.rows2.y = Int32(start - offset)
            add(.unpack, reading: [CommandBatch.Binding(buffer: upload, offset: offset, range: range)])
        case .point(let ops):
            let kernel = PointKernelSource(ops)
            add(.point, source: kernel.source, params: kernel.params)
        case let .separableConvolution(horizontal, vertical):
            // The horizontal pass covers the rows the vertical pass reads, in a buffer shaped like the input's band.
            let inputRows = needed[node.inputs[0]]!
            let temporary = try working(node.inputs[0])
            var first = push
            first.rows.x = Int32(inputRows.lowerBound)
            first.rows.y = Int32(inputRows.count)
            first.set(SeparableParameters(taps: horizontal.count))
            // Tiled: 256-pixel groups along a row, each stepping over 16 rows (the group count a 16×16 shape gives).
            let tiles = tiling.separable(taps: max(horizontal.count, vertical.count))
            add(tiles ? .separableHorizontalTiled : .separableHorizontal, params: horizontal, into: temporary,
                over: inputRows, push: first,
                groups: tiles ? ((node.width + 255) / 256, (inputRows.count + 15) / 16) : nil,
                perPixel: Double(horizontal.count))
            push.set(SeparableParameters(taps: vertical.count))
            add(tiles ? .separableVerticalTiled : .separableVertical, reading: [CommandBatch.Binding(buffer: temporary)],
                params: vertical, groups: tiles ? squareTiles : nil, perPixel: Double(vertical.count))
            give(temporary)
        case .boxBlur(let radius):
            // Running sums along segments of 32–256 pixels (about the window's length) in both passes: each
            // invocation reads its segment's first window, then two samples a pixel.
            let inputRows = needed[node.inputs[0]]!
            let temporary = try working(node.inputs[0])
            let segment = Primitive.boxSegment(radius: radius)
            let perPixel = 2 + Double(2 * radius + 1) / Double(segment)
            var first = push
            first.rows.x = Int32(inputRows.lowerBound)
            first.rows.y = Int32(inputRows.count)
            first.set(BoxParameters(radius: radius, vertical: false, segment: segment))
            // Invocations per segment: of a row (horizontal), of a column's part of the band (vertical).
            let segments = (node.width + segment - 1) / segment
            add(.box, into: temporary, over: inputRows, push: first,
                groups: ((segments + 15) / 16, (inputRows.count + 15) / 16), perPixel: perPixel)
            push.set(BoxParameters(radius: radius, vertical: true, segment: segment))
            let bandSegments = (rows.upperBound - 1) / segment - rows.lowerBound / segment + 1
            add(.box, reading: [CommandBatch.Binding(buffer: temporary)],
                groups: ((node.width + 15) / 16, (bandSegments + 15) / 16), perPixel: perPixel)
            give(temporary)
        case let .convolve(kernel, size, bias, preserveAlpha):
            push.set(ConvolveParameters(size: size, preserveAlpha: preserveAlpha, bias: bias))
            add(tiling.convolution ? .convolveTiled : .convolve, params: kernel, groups: tiling.convolution ? squareTiles : nil)
        case let .unsharpCombine(amount, threshold):
            push.set(UnsharpParameters(amount: amount, threshold: threshold))
            add(.unsharpCombine)
        case .sharpenLuminance(let amount):
            push.set(SharpenLuminanceParameters(amount: amount))
            add(.sharpenLuminance)
        case .sobel:
            add(.sobel)
        case .median(let radius):
            add(.median, source: MedianKernelSource.source(radius: radius))
        case .morphology(let morphology):
            let source = MorphologyKernelSource.source(morphology.operation)
            let passes = MorphologyKernelSource.passes(morphology)
            if passes.count == 1 {
                push.set(MorphologyParameters(rows: passes[0].count))
                add(.morphology, source: source, params: passes[0], perPixel: Double(morphology.count))
            } else {
                // The row pass covers the rows the column pass reads, in a buffer shaped like the input's band.
                let inputRows = needed[node.inputs[0]]!
                let temporary = try working(node.inputs[0])
                var first = push
                first.rows.x = Int32(inputRows.lowerBound)
                first.rows.y = Int32(inputRows.count)
                first.set(MorphologyParameters(rows: 1))
                add(.morphology, source: source, params: passes[0], into: temporary, over: inputRows, push: first,
                    perPixel: Double(2 * morphology.radius + 1))
                push.set(MorphologyParameters(rows: passes[1].count))
                add(.morphology, source: source, reading: [CommandBatch.Binding(buffer: temporary)], params: passes[1],
                    perPixel: Double(2 * morphology.radius + 1))
                give(temporary)
            }
        case .toneAdjust(let tone):
            push.set(ToneParameters(shadows: tone.shadows, highlights: tone.highlights, detail: tone.detail))
            let source = ShaderLibrary.source(.toneAdjust)
            add(.toneAdjust, source: tone.encodedWorkingSpace
                ? source.replacingOccurrences(of: "// @SPACE", with: "#define ENCODED_WORKING") : source)
        case .bilateral(let bilateral):
            let taps = bilateral.taps
            push.set(BilateralParameters(taps: taps.count, rangeScale: bilateral.rangeScale))
            add(.bilateral, params: taps.flatMap { [Float($0.dx), Float($0.dy), $0.weight] })
        case .lineBlur(let blur):
            LineBlurKernelSource.configure(&push, blur)
            add(.lineBlur, source: LineBlurKernelSource.source(blur))
        case let .resample(axis, kernel, reduced):
            let input = plan.nodes[node.inputs[0]]
            let vertical = axis == .vertical
            let weights = ResampleWeights(kernel: kernel, inSize: vertical ? input.height : input.width,
                                          outSize: vertical ? node.height : node.width, reduced: reduced)
            push.set(ResampleParameters(taps: weights.taps, vertical: vertical))
            add(.resample, params: weights.indices.map { Float($0) } + weights.weights)
        case let .crop(x, y):
            push.set(CropParameters(x: x, y: y))
            add(.crop)
        case let .boxReduce(x, y):
            push.set(BoxReduceParameters(x: x, y: y))
            add(.boxReduce)
        case .flip(let horizontal):
            push.set(ReorientParameters(mapping: horizontal ? .flipHorizontal : .flipVertical))
            add(.reorient)
        case .rotate(let quarterTurns):
            push.set(ReorientParameters(mapping: ([.rotate90, .rotate180, .rotate270] as [KernelConstants.Reorientation])[quarterTurns - 1]))
            add(.reorient)
        case .transpose:
            push.set(ReorientParameters(mapping: .transpose))
            add(.reorient)
        case let .warp(map, kernel, background):
            push.set(WarpParameters(map: map, scale: map.kernelScale, background: background.working(plan.workingSpace),
                                    kernel: kernel))
            // The projective row (0, 0, 1 for an affine map) and the widening bound, in the parameter block.
            add(.warp, params: [Float(map.g), Float(map.h), Float(map.i), Float(WarpMap.maxWidening)])
        case let .pad(top, left, color):
            push.set(PadParameters(left: left, top: top, colour: color.working(plan.workingSpace)))
            add(.pad)
        case let .blend(mode, opacity):
            push.set(BlendParameters(mode: mode, opacity: opacity))
            add(.blend)
        case .blendWithMask(let coverage):
            push.set(BlendMaskParameters(linearCoverage: coverage && plan.workingSpace == .linear))
            add(.blendWithMask)
        case .generate(let generator):
            let space = plan.workingSpace
            var coverage: [Float] = []
            switch generator {
            case .solid(let c):
                push.set(SolidParameters(colour: c.working(space)))
            case let .linear(x0, y0, x1, y1, from, to):
                push.set(LinearGradientParameters(from: from.working(space), to: to.working(space), line: SIMD4(x0, y0, x1, y1)))
            case let .radial(cx, cy, radius, from, to):
                push.set(RadialGradientParameters(from: from.working(space), to: to.working(space), centre: (cx, cy),
                                                  radius: radius))
            case let .checkerboard(size, first, second):
                push.set(CheckerboardParameters(size: size, first: first.working(space), second: second.working(space)))
            case .text(let block):
                push.set(TextParameters(x: block.x, y: block.y, width: block.width, height: block.height,
                                        colour: block.color.working(space)))
                coverage = block.coverage.map { Float($0) / 255 }
            }
            add(.generate, reading: [], params: coverage)
        }
        // Per-pixel steps fused into the node's store go into its last kernel, parameters after the kernel's own.
        if !node.post.isEmpty, case .dispatch(var last)? = steps.last {
            let post = PointKernelSource(node.post, parameterBase: last.params.count)
            last.source = post.fused(into: last.source)
            last.fusedSteps = true
            last.params += post.params
            steps[steps.count - 1] = .dispatch(last)
        }
    }

    /// Packs a band of the output's working values into stored samples of `format`, one 32-bit word per invocation.
    func pack(_ input: DeviceBuffer, into output: DeviceBuffer, rows: Range<Int>, format: PixelFormat) -> Invocation {
        let node = plan.nodes[plan.output]
        var push = PushConstants()
        let words = VulkanRun.wordAligned(rows.count * node.width * format.bytesPerPixel) / 4
        push.size = SIMD4(Int32(node.width), Int32(node.height), Int32(node.width), Int32(node.height))
        push.set(PackParameters(channels: format.channels, bytesPerSample: format.bytesPerSample,
                                linear: plan.workingSpace == .linear, words: words))
        push.rows = SIMD4(Int32(rows.lowerBound), Int32(rows.count), Int32(rows.lowerBound), 0)
        let groups = (words + 255) / 256
        let x = min(groups, 65535)
        return Invocation(kernel: .pack, source: ShaderLibrary.source(.pack),
                          bindings: [CommandBatch.Binding(buffer: output), CommandBatch.Binding(buffer: input)],
                          push: push, params: [], groups: (x, (groups + x - 1) / x), label: "output\u{1F}pack")
    }
}
