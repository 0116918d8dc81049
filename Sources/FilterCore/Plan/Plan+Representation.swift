/// How a node's rows are held on the CPU: the stored samples of a source (8- or 16-bit, 1–4 channels, 1–8 bytes a
/// pixel) or working values (4 floats, 16 bytes a pixel). Keeping samples where they hold the answer exactly is what
/// lets a turn, a crop or a tone curve cost what the photo's bytes cost, not four floats a sample.
package enum Representation: Equatable, Sendable {
    case working
    /// The samples of source `source` as stored, in `format`.
    case samples(PixelFormat, source: String)
    /// Opaque 8-bit samples of `format` from source `source` with `fractionBits` more bits below the code: one
    /// signed 16-bit value a channel (a fixed-point blur kept unrounded for the sharpening that reads it, 7 bits; a
    /// resample's first pass for its second, 6).
    case fixedPoint(PixelFormat, source: String, fractionBits: Int)

    package var bytesPerPixel: Int {
        switch self {
        case .working: return 16
        case .samples(let format, _): return format.bytesPerPixel
        case .fixedPoint(let format, _, _): return 2 * format.channels
        }
    }

    package var summary: String {
        switch self {
        case .working: return "working floats"
        case .samples(let format, _): return "\(format.rawValue) samples"
        case let .fixedPoint(format, _, bits): return "\(format.rawValue) samples in 16-bit fixed point (\(bits) bits below the code)"
        }
    }
}

/// How a source's rows arrive: their stored layout, and whether they are converted by a colour profile on their way
/// to working values (a profile's conversion commutes with moving samples, but not with a per-channel table).
package struct SampleLayout: Sendable, Equatable {
    package var format: PixelFormat
    package var converted: Bool
    package init(format: PixelFormat, converted: Bool) {
        self.format = format
        self.converted = converted
    }
}

extension ImageRowSource {
    /// The layout the CPU backend can hold this source's rows in.
    package var sampleLayout: SampleLayout {
        if let converting = self as? ConvertingRowSource {
            return SampleLayout(format: converting.storedRows.format, converted: true)
        }
        return SampleLayout(format: format, converted: false)
    }
}

extension Plan {
    /// The plan with each node's representation chosen: stored samples where the node moves samples (crop, flips,
    /// turns, transpose, a pad in a colour the samples hold exactly) or maps each channel through a table (a
    /// per-channel chain on a source that no profile converts), and its input is samples too; working floats
    /// elsewhere. A sample node is kept only where it pays: the output, a node that holds its input whole, one
    /// feeding another sample node, or a crop (converting after it converts fewer pixels). A table rounds its results to samples, so it is used only where nothing but
    /// moves lie between it and an output of the same layout (`output`): the working path rounds there too, once.
    /// Both the CPU backend and `--explain` read the choice; `representationReason` says it in words.
    package func choosingRepresentations(sources: [String: SampleLayout], output outputFormat: PixelFormat?) -> Plan {
        var untabled = Set<Int>()
        while true {
            var candidate = [Choice?](repeating: nil, count: nodes.count)
            var reasons = [String](repeating: "", count: nodes.count)
            // Working nodes that read their input's samples themselves.
            var readers = [Bool](repeating: false, count: nodes.count)
            for (i, node) in nodes.enumerated() {
                // A node whose fused steps wait for the conversion gives its consumers nothing they can move.
                let inputs = node.inputs.map { candidate[$0].flatMap { $0.deferred ? nil : $0.held } }
                let result = sampleCandidate(i, inputs: inputs, sources: sources, output: outputFormat,
                                             tables: !untabled.contains(i))
                (candidate[i], reasons[i]) = (result.0, result.1)
                // A sharpening in fixed point reads its blur unrounded.
                if result.0 != nil, case .combinesFixedPoint = node.primitive.descriptor.onSamples,
                   case .samples(let format, let source)? = inputs[0] {
                    candidate[node.inputs[1]] = Choice(held: .fixedPoint(format, source: source, fractionBits: 7))
                    reasons[node.inputs[1]] = "filters its samples in 16-bit fixed point, unrounded for the step that reads it"
                }
                // A resample's second pass finishing its first in fixed point reads it unrounded.
                if result.0 != nil, case .finishesFixedPoint = node.primitive.descriptor.onSamples,
                   case .samples(let format, let source)? = inputs[0] {
                    candidate[node.inputs[0]] = Choice(held: .fixedPoint(format, source: source,
                                                                         fractionBits: FixedPointResample.fractionBits))
                    reasons[node.inputs[0]] = "resamples its samples in 16-bit fixed point, unrounded for the pass that finishes it"
                }
                // A fixed-point candidate the plan may still not hold as samples reads them as floats instead.
                var fixedPoint = false
                if case .fixedPoint = node.primitive.descriptor.onSamples { fixedPoint = true }
                if result.0 == nil || fixedPoint, inputs.count == 1, case .samples(let format, let source)? = inputs[0],
                   sources[source]?.converted == false, node.primitive.readsSamples(format, space: workingSpace) {
                    readers[i] = true
                    if result.0 == nil { reasons[i] = Self.readerReason }
                }
            }
            var wanted = [Bool](repeating: false, count: nodes.count)
            // Whether rows leaving node i reach the output unchanged but for moves, in the output's layout.
            var exactToOutput = [Bool](repeating: false, count: nodes.count)
            for i in nodes.indices.reversed() {
                let consumers = nodes.indices.filter { nodes[$0].inputs.contains(i) }
                if candidate[i] != nil {
                    if i == output || rowRule(of: i).reach == nil
                        || consumers.contains(where: { wanted[$0] || readers[$0] }) {
                        wanted[i] = true
                    } else if case .crop = nodes[i].primitive, nodes[i].inputs.count == 1,
                              nodes[i].width * nodes[i].height < nodes[nodes[i].inputs[0]].width * nodes[nodes[i].inputs[0]].height {
                        // A crop moves fewer samples than working values, and only its pixels are converted after it.
                        wanted[i] = true
                        reasons[i] = "moves samples; converted after it, fewer pixels"
                    } else {
                        reasons[i] = "its consumers need working values"
                    }
                }
                guard wanted[i], let choice = candidate[i], case .samples(let format, _) = choice.held else { continue }
                exactToOutput[i] = (i == output && format == outputFormat && !choice.deferred) || (i != output
                    && !consumers.isEmpty && consumers.allSatisfy { wanted[$0] && !candidate[$0]!.rounds && exactToOutput[$0] })
            }
            let rounding = nodes.indices.filter { wanted[$0] && candidate[$0]!.rounds && !exactToOutput[$0] }
            if !rounding.isEmpty {
                untabled.formUnion(rounding)
                continue
            }
            var plan = self
            for i in nodes.indices {
                plan.nodes[i].representation = wanted[i] ? candidate[i]!.held : .working
                plan.nodes[i].postOnConversion = wanted[i] && candidate[i]!.deferred
                plan.nodes[i].representationReason = reasons[i]
                // A table reader held as samples reads them too; a reader does while its input stays samples.
                let heldReader: Bool
                switch nodes[i].primitive.descriptor.onSamples {
                case .readsThroughTable, .fixedPoint: heldReader = wanted[i]
                default: heldReader = false
                }
                plan.nodes[i].readsSamples = heldReader || readers[i] && wanted[nodes[i].inputs[0]]
                if !wanted[i] && readers[i] && wanted[nodes[i].inputs[0]] {
                    plan.nodes[i].representationReason = Self.readerReason
                }
            }
            return plan
        }
    }

    private static let readerReason = "reads its input's samples through a table"

    /// A node that can be held as samples: in what, whether it rounds (a table), and whether its fused per-pixel
    /// steps wait until its rows become working values.
    private struct Choice {
        var held: Representation
        var rounds = false
        var deferred = false
    }

    /// The samples a node could be held in, and why (or why not). Without `tables` a node may not round.
    private func sampleCandidate(_ index: Int, inputs: [Representation?], sources: [String: SampleLayout],
                                 output outputFormat: PixelFormat?, tables: Bool) -> (Choice?, String) {
        let node = nodes[index]
        if case .combinesFixedPoint(let holds) = node.primitive.descriptor.onSamples {
            return combinedCandidate(index, inputs: inputs, sources: sources, holds: holds, tables: tables)
        }
        if case .finishesFixedPoint(let holds, _) = node.primitive.descriptor.onSamples {
            return finishingCandidate(index, inputs: inputs, sources: sources, holds: holds, tables: tables)
        }
        if case .mixesPixels = node.primitive.descriptor.onSamples {
            return mixedCandidate(index, inputs: inputs, sources: sources, output: outputFormat, tables: tables)
        }
        let held: Representation
        if let name = node.primitive.sourceName {
            guard let layout = sources[name], !layout.format.isFloat else { return (nil, "a float source") }
            held = .samples(layout.format, source: name)
        } else {
            guard inputs.count == 1, let input = inputs[0] else {
                return (nil, node.inputs.isEmpty ? "generated" : "its input is working values")
            }
            held = input
        }
        guard case .samples(let format, let source) = held else { return (nil, "its input is working values") }
        let converted = sources[source]?.converted ?? true
        var choice = Choice(held: held)
        var reason: String
        switch node.primitive.descriptor.onSamples {
        case .stored:
            reason = "stored samples"
        case .moves:
            reason = "moves samples"
        case .movesFilling(let colour):
            // A profile's stored samples may be inks: the colour is known only in working values.
            guard !converted else { return (nil, "a profile converts its source") }
            guard Self.holdsExactly(colour, format: format, space: workingSpace) else {
                return (nil, "the pad colour is between two sample values")
            }
            reason = "moves samples"
        case .picks:
            // Per channel, it picks one of its inputs: on samples that is the working values' pick, but for alpha
            // (working values are premultiplied) and a profile's inks.
            guard !converted, !format.hasAlpha else {
                return (nil, converted ? "a profile converts its source" : "premultiplied alpha changes its picks")
            }
            reason = "picks samples"
        case .readsThroughTable(let reads):
            // Its taps read the samples through a table; its result rounds to them, as the output would round it.
            guard !converted, reads(format), node.post.isEmpty else {
                return (nil, "computes new values")
            }
            guard tables else { return (nil, "its rounding would be read by later steps") }
            choice.rounds = true
            // Rounded as the output rounds it: to the output's samples (a grey result of colour samples to grey).
            if let outputFormat, !outputFormat.isFloat { choice.held = .samples(outputFormat, source: source) }
            reason = "reads samples through a table and rounds once, as the output would"
        case .fixedPoint(let holds, _):
            // Its integer taps give the float path's result, rounded once as the output would round it.
            guard !converted, holds(format, workingSpace, shape(of: index)), node.post.isEmpty else {
                return (nil, "computes new values")
            }
            guard tables else { return (nil, "its rounding would be read by later steps") }
            choice.rounds = true
            reason = "filters its samples in 16-bit fixed point and rounds once, as the output would"
        case .perPixel(let ops):
            guard !converted else { return (nil, "a profile converts its source") }
            if Self.tabulates(ops, format: format) {
                guard tables else { return (nil, "its table would round what later steps read") }
                reason = "one table a channel"
            } else {
                // Steps that mix channels run on each row's working values while it is in cache, and the row is
                // rounded to the output's samples there: the working path's arithmetic without its rows of floats.
                guard let outputFormat, !outputFormat.isFloat, node.post.isEmpty else {
                    return (nil, "its steps mix channels or read the position")
                }
                guard tables else { return (nil, "its rounding would be read by later steps") }
                choice.held = .samples(outputFormat, source: source)
                reason = "its steps on each row's working values in cache, rounded once to the output's samples"
            }
            choice.rounds = true
        case .computes, .readsIntoWorking, .combinesFixedPoint, .finishesFixedPoint, .mixesPixels:
            return (nil, "computes new values")
        }
        guard !node.post.isEmpty else { return (choice, reason) }
        if tables && !converted && Self.tabulates(node.post, format: format) {
            choice.rounds = true
            return (choice, reason + ", its fused steps one table a channel")
        }
        // A node held whole is worth holding as samples even when its fused steps must wait for working values.
        guard rowRule(of: index).reach == nil, !choice.rounds else {
            return (nil, "its fused steps " + (converted ? "follow a profile's conversion" : "mix channels"))
        }
        choice.deferred = true
        return (choice, reason + ", its fused steps on the conversion to working values")
    }

    /// A step that combines a photo's samples with a fixed-point blur of them (an unsharp mask): held as the
    /// samples when the blur (its second input) can be filtered in fixed point and nothing else reads it.
    private func combinedCandidate(_ index: Int, inputs: [Representation?], sources: [String: SampleLayout],
                                   holds: @Sendable (PixelFormat, WorkingSpace) -> Bool, tables: Bool) -> (Choice?, String) {
        let node = nodes[index]
        guard inputs.count == 2, case .samples(let format, let source)? = inputs[0], sources[source]?.converted == false,
              holds(format, workingSpace), node.post.isEmpty else { return (nil, "computes new values") }
        let blur = node.inputs[1]
        guard case .samples(format, source)? = inputs[1], case .separableConvolution = nodes[blur].primitive,
              nodes[blur].inputs == [node.inputs[0]], !nodes.indices.contains(where: { $0 != index && nodes[$0].inputs.contains(blur) })
        else { return (nil, "its blur is not filtered in fixed point") }
        guard tables else { return (nil, "its rounding would be read by later steps") }
        return (Choice(held: .samples(format, source: source), rounds: true),
                "combines its samples with the fixed-point blur and rounds once, as the output would")
    }

    /// The second pass of a two-pass filter (a vertical resample) finishing its first in fixed point: held as
    /// samples when the first pass (its input) can run in fixed point on the samples, holds for its own shape too,
    /// and nothing else reads it.
    private func finishingCandidate(_ index: Int, inputs: [Representation?], sources: [String: SampleLayout],
                                    holds: @Sendable (PixelFormat, WorkingSpace, NodeShape) -> Bool,
                                    tables: Bool) -> (Choice?, String) {
        let node = nodes[index], first = node.inputs.first ?? index
        guard inputs.count == 1, case .samples(let format, let source)? = inputs[0], sources[source]?.converted == false,
              case .fixedPoint = nodes[first].primitive.descriptor.onSamples, case .resample = nodes[first].primitive,
              holds(format, workingSpace, shape(of: index)), node.post.isEmpty, nodes[first].post.isEmpty,
              !nodes.indices.contains(where: { $0 != index && nodes[$0].inputs.contains(first) })
        else { return (nil, "computes new values") }
        guard tables else { return (nil, "its rounding would be read by later steps") }
        return (Choice(held: .samples(format, source: source), rounds: true),
                "finishes the first pass's fixed-point sums and rounds once, as the output would")
    }

    /// A node mixing its inputs pixel by pixel (a blend): held as the output's samples when its inputs are samples
    /// that no profile converts, or working values (a generated image, text): each input row held as samples is
    /// converted to working values in cache, mixed there and rounded once, as the output would round it — the
    /// working path's arithmetic without its rows of floats.
    private func mixedCandidate(_ index: Int, inputs: [Representation?], sources: [String: SampleLayout],
                                output outputFormat: PixelFormat?, tables: Bool) -> (Choice?, String) {
        guard let outputFormat, !outputFormat.isFloat, nodes[index].post.isEmpty else { return (nil, "computes new values") }
        var held: String?
        for input in inputs {
            guard let input else { continue }
            guard case .samples(let format, let source) = input, !format.isFloat, sources[source]?.converted == false
            else { return (nil, "a profile converts its input") }
            held = held ?? source
        }
        guard let held else { return (nil, "its inputs are working values") }
        guard tables else { return (nil, "its rounding would be read by later steps") }
        return (Choice(held: .samples(outputFormat, source: held), rounds: true),
                "mixes its inputs' rows as working values in cache, rounded once to the output's samples")
    }

    /// Whether `ops` on samples of `format` are one table a channel. A grey sample stands for three equal channels,
    /// so on grey the steps must also treat the three alike (else the colour they make would be lost).
    package static func tabulates(_ ops: [PointOp], format: PixelFormat) -> Bool {
        guard ops.allSatisfy(\.isPerChannel) else { return false }
        return format.channels >= 3 || ops.allSatisfy { op in
            switch op {
            case .matrix(let matrix):
                return matrix.m[0] == matrix.m[5] && matrix.m[0] == matrix.m[10]
                    && matrix.offset[0] == matrix.offset[1] && matrix.offset[0] == matrix.offset[2]
            case let .curves(_, red, green, blue): return red == nil && green == nil && blue == nil
            default: return true
            }
        }
    }

    /// Whether `colour` stored in `format` reads back as itself.
    static func holdsExactly(_ colour: RGBA, format: PixelFormat, space: WorkingSpace) -> Bool {
        let converter = PixelConverter(format: format, space: space)
        var working = colour.working(space)
        var stored = [UInt8](repeating: 0, count: format.bytesPerPixel)
        var back = SIMD4<Float>()
        withUnsafeMutablePointer(to: &working) { w in
            w.withMemoryRebound(to: Float.self, capacity: 4) { converter.encode($0, into: &stored, width: 1) }
        }
        withUnsafeMutablePointer(to: &back) { b in
            b.withMemoryRebound(to: Float.self, capacity: 4) { converter.decode(stored, into: $0, width: 1) }
        }
        let target = colour.working(space)
        return ((back - target) * (back - target)).max() < 1e-12
    }
}
