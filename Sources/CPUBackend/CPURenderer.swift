import FilterCore

/// Runs a plan on the CPU in strips of rows: sources are read as the first strips need them, and output rows are
/// converted and handed to the sink as soon as they exist, so a chain of local filters never holds the image whole.
package enum CPURenderer {
    /// With `keepSamples` false every node is held as working values (the representations are compared in tests).
    package static func render(_ plan: Plan, sources: [String: ImageRowSource], to sink: ImageRowSink,
                              format: PixelFormat, stats: RenderStats = RenderStats(), control: RenderControl? = nil,
                              keepSamples: Bool = true) throws {
        try RenderLoad.run {
            try renderCounted(plan, sources: sources, to: sink, format: format, stats: stats, control: control,
                              keepSamples: keepSamples)
        }
    }

    private static func renderCounted(_ plan: Plan, sources: [String: ImageRowSource], to sink: ImageRowSink,
                                      format: PixelFormat, stats: RenderStats, control: RenderControl?,
                                      keepSamples: Bool) throws {
        // With a render on every core, this one keeps to its thread: it decodes, filters and encodes in turn.
        let serial = RenderLoad.saturated
        let plan = keepSamples ? plan.choosingRepresentations(sources: sources.mapValues(\.sampleLayout), output: format) : plan
        // Files decode on threads of their own, ahead of the filters (buffers in memory need no help), unless every
        // core already has a render: then the source stages read them in turn on this thread. A
        // colour-managed file's thread reads its stored rows; the source stage converts them on the workers. Rows
        // above every crop of a source are passed over, not decoded (libjpeg-turbo skips their transforms).
        let firstRows = plan.firstRowsRead()
        let firstRow = Dictionary(plan.nodes.indices.compactMap { i in plan.nodes[i].primitive.sourceName.map { ($0, firstRows[i]) } },
                                  uniquingKeysWith: min)
        var readers: [String: DecoderThread] = [:], stored: [String: ImageRowSource] = [:]
        for (name, source) in sources where !(source is BufferRowSource) {
            guard let first = firstRow[name] else { continue }  // an input the plan does not read
            let rows = (source as? ConvertingRowSource)?.storedRows ?? source
            if serial { stored[name] = rows } else { readers[name] = DecoderThread(rows, firstRow: first) }
        }
        defer {
            for reader in readers.values {
                reader.stop()
                stats.decodeSeconds += reader.busySeconds
            }
        }
        let conversions = sources.compactMapValues { $0 as? ConvertingRowSource }
        var output = try buildStages(plan, sources: sources.merging(stored) { $1 }.merging(readers) { $1 },
                                     conversions: conversions, stats: stats)
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
        let writer = EncoderThread(sink: sink, inline: serial)
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
    /// layout), with reading and writing on their own threads so inflate and deflate overlap (in turn on the caller's
    /// thread while every core has a render).
    package static func copyRows(from source: ImageRowSource, to sink: ImageRowSink, stats: RenderStats,
                                control: RenderControl? = nil) throws {
        try RenderLoad.run { try copyRowsCounted(from: source, to: sink, stats: stats, control: control) }
    }

    private static func copyRowsCounted(from source: ImageRowSource, to sink: ImageRowSink, stats: RenderStats,
                                        control: RenderControl?) throws {
        // With a render on every core, read and write in turn on this thread (`RenderLoad.saturated`).
        let serial = RenderLoad.saturated
        let reader: DecoderThread? = serial ? nil : DecoderThread(source)
        let rows: ImageRowSource = reader ?? source
        let writer = EncoderThread(sink: sink, inline: serial)
        let rowBytes = source.width * source.format.bytesPerPixel
        let strip = max(1, (1 << 20) / rowBytes)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: strip * rowBytes, alignment: 64)
        let began = monotonicSeconds()
        defer {
            buffer.deallocate()
            if let reader {
                reader.stop()
                stats.decodeSeconds += reader.busySeconds
            } else {
                stats.decodeSeconds += monotonicSeconds() - began - writer.busySeconds
            }
        }
        do {
            while rows.nextRow < rows.height {
                try control?.check()
                let count = min(strip, rows.height - rows.nextRow)
                try rows.readRows(into: buffer, stride: rowBytes, count: count)
                try writer.write(buffer, stride: rowBytes, count: count)
                control?.report(rowsDone: rows.nextRow, of: rows.height)
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

    /// The node's stages, made by its primitive's CPU kernel (Sources/CPUBackend/Primitives).
    private static func makeStage(_ node: Plan.Node, inputs: [Stage], inputNodes: [Plan.Node], opaqueInput: Bool, plan: Plan,
                                  sources: [String: ImageRowSource], conversions: [String: ConvertingRowSource],
                                  stats: RenderStats) throws -> Stage {
        guard let kernel = node.primitive.descriptor as? any CPUPrimitive else {
            throw PlanError("node \(node.origin): the CPU backend has no kernel for \(node.op)")
        }
        return try kernel.stage(CPUNodeBuild(node: node, inputs: inputs, inputNodes: inputNodes, opaqueInput: opaqueInput,
                                             plan: plan, sources: sources, conversions: conversions, stats: stats))
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
