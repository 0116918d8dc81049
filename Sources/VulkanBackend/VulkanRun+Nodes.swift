import FilterCore

/// How each primitive becomes kernel invocations, band by band.
extension VulkanRun {
    /// Plans every node the band needs, in topological order, freeing each buffer after its last consumer.
    func planBand(_ needed: [Range<Int>?], uploads: [String: DeviceBuffer], formats: [String: PixelFormat]) throws {
        let lastUse = schedule.buffers.lastWorkingReaders(needed: needed)
        for (i, node) in plan.nodes.enumerated() {
            guard let rows = needed[i] else { continue }
            try planNode(i, rows: rows, needed: needed, lastUse: lastUse, uploads: uploads, formats: formats)
            for input in Set(node.inputs) where lastUse[input] == i {
                // An input the result was written over is the result's buffer now.
                if let buffer = results[input], buffer !== results[i] { give(buffer) }
            }
        }
    }

    /// Whether the primitive runs as two passes with a temporary buffer shaped like its input's band between them.
    static func holdsTemporary(_ primitive: Primitive) -> Bool {
        (primitive.descriptor as? any VulkanPrimitive)?.holdsTemporary ?? false
    }

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

    /// Encodes the node's band through its primitive's Vulkan encoding (Sources/VulkanBackend/Primitives).
    private func planNode(_ index: Int, rows: Range<Int>, needed: [Range<Int>?], lastUse: [Int],
                          uploads: [String: DeviceBuffer], formats: [String: PixelFormat]) throws {
        let node = plan.nodes[index]
        guard let primitive = node.primitive.descriptor as? any VulkanPrimitive else {
            throw PlanError("node \(node.origin): the Vulkan backend has no kernel for \(node.op)")
        }
        let buffers = schedule.buffers
        // Computed by its blur's last pass, which also set its result.
        if buffers.fusedCombinations.contains(index) { return }
        if buffers.packed.contains(index) {
            // Readers that read each pixel once convert the upload's samples themselves.
            guard case .source(let name) = node.primitive, let format = formats[name], let upload = uploads[name] else {
                throw PlanError("node \(node.origin): no upload for a source read from its samples")
            }
            packedInputs[index] = PackedSamples.binding(upload, format: format, width: node.width,
                                                        rows: uploadRows(name, rows), alignment: context.limits.minStorageBufferOffsetAlignment)
            if buffers.withoutBuffer.contains(index) { return }
        }
        let inputs: [CommandBatch.Binding?] = node.inputs.map { input in
            buffers.readsSamples(index, input: input) ? packedInputs[input]
                : results[input].map { CommandBatch.Binding(buffer: $0) }
        }
        // A fused blur's last pass stores its combination's result.
        let combination = buffers.fusedBlurs[index]
        let output = try resultBuffer(index, rows: combination.flatMap { needed[$0] } ?? rows, needed: needed,
                                      lastUse: lastUse)
        results[index] = output
        if let combination { results[combination] = output }
        var encoder = VulkanNodeEncoder(run: self, index: index, node: node, rows: rows, needed: needed, output: output,
                                        inputs: inputs, uploads: uploads, formats: formats,
                                        push: push(index, rows: rows, needed: needed),
                                        taps: WorkEstimate.taps(ofNode: index, in: plan))
        let before = steps.count
        try primitive.encode(&encoder)
        if let combination { try fuseUnsharpCombine(combination, needed: needed) }
        // Per-pixel steps fused into the node's store go into its last kernel, parameters after the kernel's own.
        let steps = combination.map { plan.nodes[$0].post } ?? node.post
        if !steps.isEmpty, self.steps.count > before, case .dispatch(var last)? = self.steps.last {
            let post = PointKernelSource(steps, parameterBase: last.params.count)
            last.source = post.fused(into: last.source)
            last.fusedSteps = true
            last.params += post.params
            self.steps[self.steps.count - 1] = .dispatch(last)
        }
    }

    /// Makes the blur's last pass (reading its temporary alone) store unsharp masking's combination of the original,
    /// read at each pixel as input 1, with the blur (`BufferPlan.fusedBlurs`; images.glsl's STORE_UNSHARP).
    private func fuseUnsharpCombine(_ index: Int, needed: [Range<Int>?]) throws {
        let node = plan.nodes[index], original = node.inputs[0]
        guard let combine = node.primitive.descriptor as? Primitives.UnsharpCombine,
              case .dispatch(var last)? = steps.last, last.bindings.count == 2, let rows = needed[original] else {
            throw PlanError("node \(node.origin): unsharp masking's blur has no last pass to combine in")
        }
        let read = schedule.buffers.readsSamples(index, input: original) ? packedInputs[original]
            : results[original].map { CommandBatch.Binding(buffer: $0) }
        last.bindings.append(read)
        let inputs = Array(last.bindings.dropFirst())
        last.push.set(UnsharpParameters(amount: combine.amount, threshold: combine.threshold))
        last.push.size2.x = Int32(plan.nodes[original].width)
        last.push.size2.y = Int32(plan.nodes[original].height)
        last.push.rows.w = Int32(rows.lowerBound)
        PackedSamples.offsets(&last.push, inputs: inputs)
        last.source = PackedSamples.reading(Self.defining("STORE_UNSHARP", in: last.source), inputs: inputs,
                                            linear: plan.workingSpace == .linear)
        last.work += Double(node.width * (needed[index]?.count ?? 0))
        steps[steps.count - 1] = .dispatch(last)
    }

    /// The buffer the band that node `index`'s kernels compute is written to (`rows` of the result: the node's, or a
    /// fused blur's combination's): an input's that it may overwrite (`BufferPlan.overwritable`), where the reader
    /// named there is the input's last in this band, the buffer is large enough and, for a kernel reading the input
    /// at its pixel, the input's band starts at the result's first row (so a pixel's index is the same in both);
    /// else a working buffer.
    private func resultBuffer(_ index: Int, rows: Range<Int>, needed: [Range<Int>?], lastUse: [Int]) throws -> DeviceBuffer {
        let result = schedule.buffers.fusedBlurs[index] ?? index
        let bytes = max(1, schedule.capacity[result]) * plan.nodes[result].width * schedule.pixelBytes
        for (input, reader, atItsPixel) in schedule.buffers.overwritable(index) where lastUse[input] == reader {
            guard let buffer = results[input], owns(buffer), buffer.byteCount >= bytes,
                  !atItsPixel || needed[input]?.lowerBound == rows.lowerBound else { continue }
            return buffer
        }
        return try working(result)
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
