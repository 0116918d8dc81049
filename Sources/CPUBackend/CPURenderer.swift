import FilterCore

/// Runs a plan on the CPU in strips of rows: sources are read as the first strips need them, and output rows are
/// converted and handed to the sink as soon as they exist, so a chain of local filters never holds the image whole.
package enum CPURenderer {
    /// With `keepSamples` false every node is held as working values (the representations are compared in tests).
    package static func render(_ plan: Plan, sources: [String: ImageRowSource], to sink: ImageRowSink,
                              format: PixelFormat, stats: RenderStats = RenderStats(), control: RenderControl? = nil,
                              keepSamples: Bool = true) throws {
        let plan = keepSamples ? plan.choosingRepresentations(sources: sources.mapValues(\.sampleLayout), output: format) : plan
        // Files decode on threads of their own, ahead of the filters (buffers in memory need no help). A
        // colour-managed file's thread reads its stored rows; the source stage converts them on the workers. Rows
        // above every crop of a source are passed over, not decoded (libjpeg-turbo skips their transforms).
        let firstRows = plan.firstRowsRead()
        let firstRow = Dictionary(plan.nodes.indices.compactMap { i in plan.nodes[i].primitive.sourceName.map { ($0, firstRows[i]) } },
                                  uniquingKeysWith: min)
        var readers: [String: DecoderThread] = [:]
        for (name, source) in sources where !(source is BufferRowSource) {
            guard let first = firstRow[name] else { continue }  // an input the plan does not read
            readers[name] = DecoderThread((source as? ConvertingRowSource)?.storedRows ?? source, firstRow: first)
        }
        defer {
            for reader in readers.values {
                reader.stop()
                stats.decodeSeconds += reader.busySeconds
            }
        }
        let conversions = sources.compactMapValues { $0 as? ConvertingRowSource }
        var output = try buildStages(plan, sources: sources.merging(readers) { $1 }, conversions: conversions,
                                     stats: stats)
        // Samples already in the output's layout and encoding go to the encoder as they are; others are converted.
        var copies = false
        if case .samples(let stored, let name) = output.representation {
            copies = stored == format && conversions[name] == nil && !plan.nodes[plan.output].postOnConversion
            if !copies {
                output = connect(ConvertStage(from: plan.nodes[plan.output], format: stored, conversion: conversions[name],
                                              space: plan.workingSpace, stats: stats), output)
            }
        }
        let consumer = output.addConsumer()
        let converter = PixelConverter(format: format, space: plan.workingSpace)
        let width = output.width, rowBytes = width * format.bytesPerPixel
        let strip = output.stripHeight
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: strip * rowBytes, alignment: 64)
        defer { scratch.deallocate() }
        let writer = EncoderThread(sink: sink)
        var y = 0
        do {
            while y < output.height {
                try control?.check()
                let rows = y..<min(output.height, y + strip)
                try output.ensure(rows, consumer: consumer)
                let view = output.view(rows)
                if copies {
                    try writer.write(view.bytes(rows.lowerBound), stride: rowBytes, count: rows.count)
                } else {
                    let began = monotonicSeconds()
                    WorkerPool.forEachChunk(rows, minChunk: max(1, 4096 / width)) { chunk in
                        for row in chunk {
                            converter.encode(view.row(row), into: scratch + (row - rows.lowerBound) * rowBytes, width: width)
                        }
                    }
                    stats.encodeSeconds += monotonicSeconds() - began
                    try writer.write(scratch, stride: rowBytes, count: rows.count)
                }
                y = rows.upperBound
                control?.report(rowsDone: y, of: output.height)
            }
            try writer.finish()
        } catch {
            try? writer.finish()  // let the writer stop before its sink goes away
            throw error
        }
        // The encoder thread's time, which ran beside the filters (decode + filter + encode may exceed the total).
        stats.encodeSeconds += writer.busySeconds
        output.finish(consumer: consumer)
    }

    /// Copies stored rows from `source` to `sink` unchanged (a plan without filters whose output keeps the input's
    /// layout), with reading and writing on their own threads so inflate and deflate overlap.
    package static func copyRows(from source: ImageRowSource, to sink: ImageRowSink, stats: RenderStats,
                                control: RenderControl? = nil) throws {
        let reader = DecoderThread(source)
        let writer = EncoderThread(sink: sink)
        let rowBytes = source.width * source.format.bytesPerPixel
        let strip = max(1, (1 << 20) / rowBytes)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: strip * rowBytes, alignment: 64)
        defer {
            buffer.deallocate()
            reader.stop()
            stats.decodeSeconds += reader.busySeconds
        }
        do {
            while reader.nextRow < reader.height {
                try control?.check()
                let count = min(strip, reader.height - reader.nextRow)
                try reader.readRows(into: buffer, stride: rowBytes, count: count)
                try writer.write(buffer, stride: rowBytes, count: count)
                control?.report(rowsDone: reader.nextRow, of: reader.height)
            }
            try writer.finish()
        } catch {
            try? writer.finish()
            throw error
        }
        stats.encodeSeconds += writer.busySeconds
    }

    /// Renders into a new host buffer of `format`.
    package static func render(_ plan: Plan, sources: [String: ImageRowSource], format: PixelFormat,
                              stats: RenderStats = RenderStats(), control: RenderControl? = nil,
                              keepSamples: Bool = true) throws -> PixelBuffer {
        let node = plan.nodes[plan.output]
        let buffer = PixelBuffer(width: node.width, height: node.height, format: format)
        try render(plan, sources: sources, to: BufferRowSink(buffer), format: format, stats: stats, control: control,
                   keepSamples: keepSamples)
        return buffer
    }

    /// Builds the stages of a plan whose representations are chosen; `conversions` name the sources whose rows
    /// arrive as stored and are converted by their first working stage.
    static func buildStages(_ plan: Plan, sources: [String: ImageRowSource],
                            conversions: [String: ConvertingRowSource] = [:], stats: RenderStats) throws -> Stage {
        var stages = [Int: Stage]()
        var converted = [Int: Stage]()
        let mayHaveAlpha = plan.nodesMayHaveAlpha(sourceHasAlpha: sources.mapValues(\.format.hasAlpha))
        func stage(_ index: Int) throws -> Stage {
            if let existing = stages[index] { return existing }
            let node = plan.nodes[index]
            let samples = node.representation != .working
            // A working node reads working values: a sample input is converted once for all its working consumers
            // (and for a node mixing its inputs' rows, one whose fused steps wait for the conversion).
            let inputs = try node.inputs.map { input in
                let made = try stage(input)
                guard !samples || plan.nodes[input].postOnConversion, !node.readsSamples,
                      case .samples(let format, let name) = made.representation else {
                    return made
                }
                if let existing = converted[input] { return existing }
                let conversion = connect(ConvertStage(from: plan.nodes[input], format: format, conversion: conversions[name],
                                                      space: plan.workingSpace, stats: stats), made)
                converted[input] = conversion
                return conversion
            }
            let made = try makeStage(node.postOnConversion ? node.withoutPost : node, inputs: inputs,
                                     inputNodes: node.inputs.map { plan.nodes[$0] },
                                     opaqueInput: node.inputs.first.map { !mayHaveAlpha[$0] } ?? false,
                                     plan: plan, sources: sources, conversions: conversions, stats: stats)
            // The node's rule, made once (a resample's weights are in it). One that reads rows out of order (a
            // vertical flip, a turn) holds the whole input: consumers pull rows top to bottom.
            let rule = plan.rowRule(of: index)
            made.region = { rows, input in
                let height = plan.nodes[node.inputs[input]].height
                guard !rule.holdsWhole else { return 0..<height }
                return Plan.clamped(rule.rows(rows), height: height)
            }
            if case .samples(let format, _) = node.representation, !node.post.isEmpty, !node.postOnConversion {
                made.postTable = SampleTable(node.post, format: format, space: plan.workingSpace)
            }
            stages[index] = made
            return made
        }
        return try stage(plan.output)
    }

    private static func connect(_ stage: Stage, _ inputs: Stage...) -> Stage {
        for input in inputs { stage.connect(input) }
        return stage
    }

    private static func makeStage(_ node: Plan.Node, inputs: [Stage], inputNodes: [Plan.Node], opaqueInput: Bool, plan: Plan,
                                  sources: [String: ImageRowSource], conversions: [String: ConvertingRowSource],
                                  stats: RenderStats) throws -> Stage {
        func connected(_ stage: Stage, _ inputs: [Stage]) -> Stage {
            for input in inputs { stage.connect(input) }
            return stage
        }
        switch node.primitive {
        case .source(let name):
            guard let source = sources[name] else { throw PlanError("no image given for input \"\(name)\"") }
            return SourceStage(source: source, conversion: conversions[name], space: plan.workingSpace, node: node,
                               stats: stats)
        case .point(let ops):
            if case .samples(let format, _) = node.representation, case .samples(let stored, _) = inputNodes[0].representation {
                // The plan's rule (`Plan.choosingRepresentations`): a table where the steps allow one, else the
                // steps on each row's working values, rounded to the node's samples.
                if stored == format && Plan.tabulates(ops, format: format) {
                    return connected(TableStage(SampleTable(ops, format: format, space: plan.workingSpace), node: node,
                                                stats: stats), inputs)
                }
                return connected(SamplePointStage(ops, from: stored, space: plan.workingSpace, node: node, stats: stats),
                                 inputs)
            }
            var stored: PixelFormat?
            if node.readsSamples, case .samples(let format, _) = inputNodes[0].representation { stored = format }
            return connected(PointStage(ops, reading: stored, space: plan.workingSpace, node: node, stats: stats), inputs)
        case let .separableConvolution(horizontal, vertical):
            if let (format, source, unrounded) = node.representation.fixedPointLayout,
               let h = FixedPointTaps(horizontal), let v = FixedPointTaps(vertical) {
                return FixedPointBlur.taps(horizontal: h, vertical: v).stages(node, format: format, source: source,
                                                                             unrounded: unrounded, input: inputs[0],
                                                                             stats: stats)
            }
            let h = connected(HorizontalConvolutionStage(taps: horizontal, samples: converter(reading: inputNodes[0], for: node,
                                                                                               plan.workingSpace),
                                                         node: node.withoutPost, stats: stats), inputs)
            return connected(VerticalConvolutionStage(taps: vertical, node: node, stats: stats), [h])
        case .boxBlur(let radius):
            if case .samples(let format, let source) = node.representation {
                return FixedPointBlur.box(radius: radius).stages(node, format: format, source: source, input: inputs[0],
                                                                 stats: stats)
            }
            let h = connected(HorizontalBoxStage(radius: radius, samples: converter(reading: inputNodes[0], for: node,
                                                                                    plan.workingSpace),
                                                 node: node.withoutPost, stats: stats), inputs)
            return connected(VerticalBoxStage(radius: radius, node: node, stats: stats), [h])
        case let .convolve(kernel, size, bias, preserveAlpha):
            if case .samples(let format, let source) = node.representation,
               let descriptor = node.primitive.descriptor as? Primitives.Convolve {
                if bias == 0, let factors = descriptor.fixedPointFactors {
                    return FixedPointBlur.taps(horizontal: factors.row, vertical: factors.column)
                        .stages(node, format: format, source: source, input: inputs[0], stats: stats)
                }
                if let fixed = descriptor.fixedPointKernel {
                    return connected(FixedKernelStage(fixed, channels: format.channels, node: node, stats: stats), inputs)
                }
            }
            let samples = converter(reading: inputNodes[0], for: node, plan.workingSpace)
            // Opaque samples through a kernel that is a column times a row, with no bias: a separable blur's two
            // stages, each input row's horizontal pass made once (not once for every chunk whose window holds it).
            // Their alpha is the kernel's sum, which preserveAlpha's 1 is only where the kernel is normalised.
            if samples != nil, bias == 0, !preserveAlpha || abs(kernel.reduce(0, +) - 1) <= 1e-6,
               let factors = Primitives.Convolve.factors(kernel, size: size) {
                let h = connected(HorizontalConvolutionStage(taps: factors.row, samples: samples, node: node.withoutPost,
                                                             stats: stats), inputs)
                return connected(VerticalConvolutionStage(taps: factors.column, node: node, stats: stats), [h])
            }
            return connected(ConvolveStage(kernel: kernel, size: size, bias: bias, preserveAlpha: preserveAlpha,
                                           samples: samples, opaque: opaqueInput, node: node, stats: stats), inputs)
        case let .unsharpCombine(amount, threshold):
            if case .samples = node.representation, case .fixedPoint = inputNodes[1].representation {
                return connected(FixedUnsharpStage(amount: amount, threshold: threshold, node: node, stats: stats), inputs)
            }
            return connected(UnsharpCombineStage(amount: amount, threshold: threshold, node: node, stats: stats), inputs)
        case .sharpenLuminance(let amount):
            return connected(SharpenLuminanceStage(amount: amount, node: node, stats: stats), inputs)
        case .sobel:
            return connected(SobelStage(input: inputNodes[0], node: node, space: plan.workingSpace, stats: stats), inputs)
        case .median(let radius):
            return connected(MedianStage(radius: radius, node: node, stats: stats), inputs)
        case .morphology(let morphology):
            return connected(MorphologyStage(morphology, node: node, stats: stats), inputs)
        case .lineBlur(let blur):
            return connected(LineBlurStage(blur, node: node, stats: stats), inputs)
        case .bilateral(let bilateral):
            return connected(BilateralStage(bilateral, node: node, stats: stats), inputs)
        case .toneAdjust(let tone):
            return connected(ToneAdjustStage(tone, node: node, stats: stats), inputs)
        case let .resample(axis, kernel, reduced):
            // The plan's choice (`Primitives.Resample.onSamples`): a horizontal pass held as samples or unrounded
            // fixed point, and a vertical pass finishing it, run in integers.
            let (inSize, outSize) = axis == .horizontal ? (inputNodes[0].width, node.width) : (inputNodes[0].height, node.height)
            func fixed() throws -> FixedPointResample {
                let weights = ResampleWeights(kernel: kernel, inSize: inSize, outSize: outSize, reduced: reduced)
                guard let fixed = FixedPointResample(weights) else {
                    throw PlanError("node \(node.origin): the resample's taps do not suit fixed point, as the plan assumed")
                }
                return fixed
            }
            if axis == .horizontal, let (format, _, _) = node.representation.fixedPointLayout {
                return connected(FixedHorizontalResampleStage(try fixed(), inputWidth: inSize, channels: format.channels,
                                                              node: node, stats: stats), inputs)
            }
            if axis == .vertical, case .samples = node.representation, case .fixedPoint = inputNodes[0].representation {
                return connected(FixedVerticalResampleStage(try fixed(), node: node, stats: stats), inputs)
            }
            let stage: Stage = axis == .horizontal
                ? HorizontalResampleStage(kernel: kernel, inputWidth: inputNodes[0].width, reduced: reduced,
                                          samples: converter(reading: inputNodes[0], for: node, plan.workingSpace),
                                          node: node, stats: stats)
                : VerticalResampleStage(kernel: kernel, inputHeight: inputNodes[0].height, reduced: reduced, input: inputNodes[0],
                                        node: node, stats: stats)
            return connected(stage, inputs)
        case let .boxReduce(x, y):
            return connected(BoxReduceStage(x: x, y: y, input: inputNodes[0], node: node, stats: stats), inputs)
        case let .crop(x, y):
            return connected(CropStage(x: x, y: y, node: node, stats: stats), inputs)
        case .flip(let horizontal):
            return connected(ReorientStage(horizontal ? .flipHorizontal : .flipVertical, input: inputNodes[0], node: node,
                                           stats: stats), inputs)
        case .rotate(let turns):
            let mapping: ReorientStage.Mapping = turns == 1 ? .rotate90 : (turns == 2 ? .rotate180 : .rotate270)
            return connected(ReorientStage(mapping, input: inputNodes[0], node: node, stats: stats), inputs)
        case .transpose:
            return connected(ReorientStage(.transpose, input: inputNodes[0], node: node, stats: stats), inputs)
        case let .warp(map, kernel, background):
            return connected(WarpStage(map: map, kernel: kernel, background: background.working(plan.workingSpace),
                                         input: inputNodes[0], node: node, space: plan.workingSpace, stats: stats), inputs)
        case let .pad(top, left, color):
            return connected(PadStage(top: top, left: left, fill: pixel(color, node.representation, plan.workingSpace),
                                      input: inputNodes[0], node: node, stats: stats), inputs)
        case let .blend(mode, opacity):
            return connected(BlendStage(mode: mode, opacity: opacity, inputs: inputs, node: node,
                                        space: plan.workingSpace, stats: stats), inputs)
        case .blendWithMask(let coverage):
            return connected(BlendWithMaskStage(inputs: inputs, encodedMask: coverage && plan.workingSpace == .linear,
                                                node: node, space: plan.workingSpace, stats: stats), inputs)
        case .generate(let generator):
            return GeneratorStage(generator, space: plan.workingSpace, node: node, stats: stats)
        }
    }

    /// The conversion of `input`'s stored samples for a node that reads them itself, else nil.
    private static func converter(reading input: Plan.Node, for node: Plan.Node, _ space: WorkingSpace) -> PixelConverter? {
        guard node.readsSamples, case .samples(let format, _) = input.representation else { return nil }
        return PixelConverter(format: format, space: space)
    }

    /// One pixel of `colour` as `representation` holds it.
    private static func pixel(_ colour: RGBA, _ representation: Representation, _ space: WorkingSpace) -> [UInt8] {
        var working = colour.working(space)
        guard case .samples(let format, _) = representation else {
            return withUnsafeBytes(of: &working) { Array($0) }
        }
        var stored = [UInt8](repeating: 0, count: format.bytesPerPixel)
        withUnsafeMutablePointer(to: &working) { w in
            w.withMemoryRebound(to: Float.self, capacity: 4) {
                PixelConverter(format: format, space: space).encode($0, into: &stored, width: 1)
            }
        }
        return stored
    }
}

extension Plan.Node {
    /// The node for the first of two stages: fused per-pixel steps belong to the last one.
    var withoutPost: Plan.Node {
        var node = self
        node.post = []
        return node
    }
}

extension Representation {
    /// For a node a fixed-point blur makes: its samples' format and source, and whether it keeps them unrounded.
    var fixedPointLayout: (PixelFormat, String, Bool)? {
        switch self {
        case .samples(let format, let source): return (format, source, false)
        case .fixedPoint(let format, let source, _): return (format, source, true)
        case .working: return nil
        }
    }
}
