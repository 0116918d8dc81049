/// Rewrites a plan before it runs so that it costs what its real work costs: per-pixel chains become one kernel,
/// colour matrices fold into one, identities and dead nodes disappear, repeated work runs once, flips and turns
/// compose. Every rewrite keeps the pixels (up to float rounding) and is logged for `--explain`.
package struct Optimizer {
    package private(set) var log: [String] = []
    /// Rewrites made so far (the log may merge lines, so it cannot be counted instead).
    private var rewrites = 0
    private var nodes: [Plan.Node]
    private var output: Int
    private let workingSpace: WorkingSpace
    private var decodeReductions: [String: DecodeReductions] = [:]
    private var fidelity = Fidelity.high

    /// The optimised plan and the rewrites made, in order. `decodeReductions` lists, per source, the factors its
    /// decoder can shrink by while decoding (JPEG: 2, 4, 8 in the DCT; WebP: by its rescaler); the plan then asks
    /// for one where a shrink follows, as far as `fidelity` allows, and the source node has the reduced size.
    package static func optimize(_ plan: Plan, decodeReductions: [String: DecodeReductions] = [:],
                                 fidelity: Fidelity = .high) -> (plan: Plan, log: [String]) {
        var optimizer = Optimizer(plan)
        optimizer.decodeReductions = decodeReductions
        optimizer.fidelity = fidelity
        optimizer.run()
        return (Plan(nodes: optimizer.nodes, output: optimizer.output, workingSpace: plan.workingSpace), optimizer.log)
    }

    private init(_ plan: Plan) {
        nodes = plan.nodes
        output = plan.output
        workingSpace = plan.workingSpace
    }

    private mutating func run() {
        for _ in 0..<4 {  // each move lets an earlier turn (EXIF 7's transpose then half turn) move too
            let before = rewrites
            moveTurnsPastShrinks()
            if rewrites == before { break }
        }
        // The exact fidelity resizes the full decode: neither a decoder's reduction nor a box reduction first.
        if fidelity != .exact && !reduceInDecoder() { shrinkAtDecode() }
        shrinkInFixedPointOrder()
        for _ in 0..<16 {
            let before = rewrites
            simplifyPointOps()
            fusePointChains()
            fuseIntoStores()
            removeIdentities()
            composeGeometry()
            mergeDuplicates()
            dropDeadNodes()
            if rewrites == before { break }
        }
    }

    private mutating func note(_ line: String) {
        log.append(line)
        rewrites += 1
    }

    // MARK: - Graph edits

    private func consumers(of index: Int) -> [Int] {
        nodes.indices.filter { nodes[$0].inputs.contains(index) }
    }

    /// Whether only node `consumer` reads node `index` (and the output is not `index`).
    private func readOnlyBy(_ consumer: Int, _ index: Int) -> Bool {
        index != output && consumers(of: index) == [consumer] && nodes[consumer].inputs.filter { $0 == index }.count == 1
    }

    /// Makes every reader of node `index` read node `replacement` instead; `index` becomes dead.
    private mutating func redirect(_ index: Int, to replacement: Int) {
        for i in nodes.indices { nodes[i].inputs = nodes[i].inputs.map { $0 == index ? replacement : $0 } }
        if output == index { output = replacement }
    }

    private func name(_ index: Int) -> String { "\(nodes[index].op) [\(nodes[index].origin)]" }

    // MARK: - Passes

    /// Within each per-pixel node: adjacent matrices fold into one; operations that change nothing go; a node left
    /// with nothing to do is bypassed.
    private mutating func simplifyPointOps() {
        for i in nodes.indices {
            guard case .point(let ops) = nodes[i].primitive else { continue }
            var simplified = [PointOp]()
            var folded = 0
            for op in ops where !op.isIdentity {
                if case .matrix(let next) = op, case .matrix(let previous)? = simplified.last {
                    simplified[simplified.count - 1] = .matrix(next.after(previous))
                    folded += 1
                } else {
                    simplified.append(op)
                }
            }
            if case .matrix(let m)? = simplified.last, m.isIdentity { simplified.removeLast() }
            // A convolution of alpha with negative weights can leave colour where alpha is 0 or below, which later
            // steps carry; a per-pixel step, even one that changes nothing, clears it (colour is unpremultiplied
            // first), so after such a convolution it stays.
            if simplified.isEmpty && followsAlphaConvolution(i) { continue }
            guard simplified != ops else { continue }
            if !simplified.isEmpty && simplified.count + folded < ops.count {
                note("dropped \(ops.count - simplified.count - folded) step(s) of \(name(i)) that change nothing")
            }
            nodes[i].primitive = .point(simplified)
            if folded > 0 { note("folded \(folded + 1) colour matrices of \(name(i)) into one") }
            if simplified.isEmpty {
                note("bypassed \(name(i)): it changes nothing")
                redirect(i, to: nodes[i].inputs[0])
            }
        }
    }

    /// Whether a convolution of alpha with negative weights is upstream of the node.
    private func followsAlphaConvolution(_ index: Int) -> Bool {
        var pending = nodes[index].inputs, seen = Set<Int>()
        while let i = pending.popLast() {
            guard seen.insert(i).inserted else { continue }
            if case let .convolve(kernel, _, _, false) = nodes[i].primitive, kernel.contains(where: { $0 < 0 }) { return true }
            pending += nodes[i].inputs
        }
        return false
    }

    /// A per-pixel node whose only reader is another per-pixel node joins it, so the chain runs as one kernel.
    private mutating func fusePointChains() {
        for i in nodes.indices {
            guard case .point(let later) = nodes[i].primitive, let input = nodes[i].inputs.first,
                  case .point(let earlier) = nodes[input].primitive, readOnlyBy(i, input) else { continue }
            // Between two per-pixel nodes the colour of fully transparent pixels is lost (premultiplied zero); a
            // later step that can make such pixels visible must see that.
            let boundary: [PointOp] = later.contains(where: \.canRaiseZeroAlpha) ? [.clearTransparent] : []
            nodes[i].primitive = .point(earlier + boundary + later)
            nodes[i].inputs = nodes[input].inputs
            // One line per fused chain: a chain growing step by step replaces its previous line.
            log.removeAll { $0.hasPrefix("fused per-pixel steps \(nodes[input].origin) (") }
            nodes[i].origin = "\(nodes[input].origin)+\(nodes[i].origin)"
            nodes[i].op = "\(nodes[input].op)+\(nodes[i].op)"
            note("fused per-pixel steps \(nodes[i].origin) (\(nodes[i].op)) into one kernel")
        }
    }

    /// A per-pixel node that is the only reader of a node doing other work runs as that node's store: its pixels are
    /// transformed while still in registers (Vulkan) or in cache (CPU), saving a pass over the image. Exact: the
    /// store applies the steps to the same premultiplied value the per-pixel node would have loaded.
    private mutating func fuseIntoStores() {
        for i in nodes.indices where inputsStillUsed(i) {
            guard case .point(let ops) = nodes[i].primitive, !ops.isEmpty, let input = nodes[i].inputs.first,
                  readOnlyBy(i, input), nodes[input].post.isEmpty else { continue }
            // Chains fuse as chains; decoding keeps its own stage.
            if case .point = nodes[input].primitive { continue }
            if nodes[input].primitive.sourceName != nil { continue }
            nodes[input].post = ops
            nodes[input].origin = "\(nodes[input].origin)+\(nodes[i].origin)"
            nodes[input].op = "\(nodes[input].op)+\(nodes[i].op)"
            note("fused per-pixel \(name(i)) into the store of \(nodes[input].op) [\(nodes[input].origin)]")
            redirect(i, to: input)
            nodes[i].inputs = []
            nodes[i].primitive = .point([])
        }
    }

    /// Resampling to the same size, a crop of the whole frame and a pad of nothing change no pixel.
    private mutating func removeIdentities() {
        for i in nodes.indices {
            guard let input = nodes[i].inputs.first else { continue }
            let identity = nodes[i].primitive.descriptor.isIdentity(NodeShape(of: i, in: nodes))
            guard identity, nodes[i].post.isEmpty, inputsStillUsed(i) else { continue }
            note("bypassed \(name(i)): same size in and out")
            redirect(i, to: input)
            nodes[i].inputs = []
            nodes[i].primitive = .point([])
        }
    }

    /// Whether node `i` is still part of the graph (not already bypassed).
    private func inputsStillUsed(_ i: Int) -> Bool { i == output || !consumers(of: i).isEmpty }

    /// Consecutive flips and turns compose into one (or none); a crop of a crop is one crop.
    private mutating func composeGeometry() {
        for i in nodes.indices where inputsStillUsed(i) {
            // The inner node must not carry fused per-pixel steps: composing would drop them.
            guard let input = nodes[i].inputs.first, readOnlyBy(i, input), nodes[input].post.isEmpty else { continue }
            if let outer = Orientation(nodes[i].primitive), let inner = Orientation(nodes[input].primitive) {
                let combined = outer.after(inner)
                if combined == .identity {
                    guard nodes[i].post.isEmpty else { continue }  // its fused steps would be lost
                    note("\(name(input)) then \(name(i)) cancel out")
                    redirect(i, to: nodes[input].inputs[0])
                } else if let primitive = combined.primitive {
                    note("composed \(name(input)) and \(name(i)) into \(primitive.descriptor.summary)")
                    nodes[i].primitive = primitive
                    nodes[i].inputs = nodes[input].inputs
                }
            } else if case let .crop(x2, y2) = nodes[i].primitive, case let .crop(x1, y1) = nodes[input].primitive {
                note("composed \(name(input)) and \(name(i)) into one crop")
                nodes[i].primitive = .crop(x: x1 + x2, y: y1 + y2)
                nodes[i].inputs = nodes[input].inputs
            }
        }
    }

    /// The same primitive on the same inputs runs once.
    private mutating func mergeDuplicates() {
        for j in nodes.indices where inputsStillUsed(j) {
            guard let i = (0..<j).first(where: { i in
                inputsStillUsed(i) && nodes[i].primitive == nodes[j].primitive && nodes[i].inputs == nodes[j].inputs
                    && nodes[i].post == nodes[j].post
                    && nodes[i].width == nodes[j].width && nodes[i].height == nodes[j].height
            }) else { continue }
            note("\(name(j)) repeats \(name(i)): computed once")
            redirect(j, to: i)
        }
    }

    /// The exact kernel keeps at least this much of a shrink: the box's own blur then stays within the resize
    /// filter's tolerance of the exact result (measured on a 20 MP photo: a gap of 2, as thumbnailers use, is off by
    /// up to 34 codes at 15×; 8 by 3 codes at 60×; 10 by at most 2 at 30× and 60×).
    static let shrinkGap = 10

    /// A source read only to be shrunk by `2 × shrinkGap` or more is box-reduced as its rows arrive (by the factor
    /// over `shrinkGap`), and the resample then reads the reduced image, sampling where it would have in the
    /// original.
    private mutating func shrinkAtDecode() {
        for s in nodes.indices {
            guard case .source = nodes[s].primitive, !consumers(of: s).isEmpty, consumers(of: s).count == 1 else { continue }
            let chain = resampleChain(after: s)
            guard !chain.isEmpty else { continue }
            let source = nodes[s], target = nodes[chain.last!]
            func factor(_ from: Int, _ to: Int) -> Int { from >= 2 * Self.shrinkGap * to ? from / to / Self.shrinkGap : 1 }
            let (fx, fy) = (factor(source.width, target.width), factor(source.height, target.height))
            guard fx > 1 || fy > 1 else { continue }
            let reducedWidth = (source.width + fx - 1) / fx, reducedHeight = (source.height + fy - 1) / fy
            var box = source
            box.primitive = .boxReduce(x: fx, y: fy)
            box.inputs = [s]
            box.width = reducedWidth
            box.height = reducedHeight
            box.op = "shrink-on-decode"
            insert(box, at: s + 1)
            var resampled = Set<Primitive.Axis>()
            for i in chain.map({ $0 + 1 }) {
                guard case .resample(let axis, let kernel, _) = nodes[i].primitive else { continue }
                let horizontal = axis == .horizontal
                let k = horizontal ? fx : fy, original = horizontal ? source.width : source.height
                nodes[i].primitive = .resample(axis: axis, kernel: kernel,
                                               reduced: k > 1 ? BoxReduction(factor: k, originalSize: original) : nil)
                // The other axis is still at its reduced size unless an earlier pass resampled it.
                if horizontal && !resampled.contains(.vertical) { nodes[i].height = reducedHeight }
                if !horizontal && !resampled.contains(.horizontal) { nodes[i].width = reducedWidth }
                resampled.insert(axis)
                if nodes[i].inputs == [s] { nodes[i].inputs = [s + 1] }
            }
            note("shrink on decode: \(source.origin) box-reduced \(fx)×\(fy) to \(reducedWidth)×\(reducedHeight) as rows arrive, then \(target.op) [\(target.origin)] resamples exactly to \(target.width)×\(target.height)")
            return
        }
    }

    /// How much of a shrink the exact kernel must keep after a decoder's reduction by `factor`, for the result to
    /// stay within resize's tolerance (2 codes) of the exact path. JPEG's DCT scaling averages encoded (sRGB)
    /// values, so in sRGB working space small margins suffice: measured on two photos, 2 codes at 3.5 for f = 2,
    /// at 3.6 for f = 4 and at 3.75 for f = 8 (3 codes just below each), while in linear light its averaging
    /// differs from the working space's at high-contrast edges: on a 20 MP photo at quality 90, 1/8 leaves 11 codes
    /// even at a margin of 8, 1/2 leaves 5 codes at 8, 3 at 16, 2 at 32 (BENCHMARKS.md).
    /// libwebp's rescaler (`wholeRescale`) averages its YCbCr planes, chroma at its own resolution and then
    /// upsampled plainly rather than libwebp's fancy upsampling, which strays further: in sRGB a shrink of 4–6 × f
    /// leaves 3–4 codes and 7 × f leaves 3 at f = 1.5, while 7.5 × f kept 2 on every case measured (three photos,
    /// 16 sizes, f from 1.6 to 3.5; scripts/measure-webp-shrink.py, BENCHMARKS.md); in linear light the JPEG rule
    /// holds (2 at a margin of 32). A lossy WebP's exact box means (`decodedBoxes`) kept 2 codes at 3.5 for f = 2
    /// and at 4 for f = 3…8 in sRGB, where JPEG's 3.6–3.75 left 3 at two sizes of two photos (three photos, 16 sizes
    /// each; scripts/measure-webp-shrink.py, BENCHMARKS.md). A TIFF pyramid's levels (`levels`: rounded 2 × 2
    /// means, level after level) of a lossless photo keep all its fine detail, which box means alias where a DCT
    /// or a lossy codec had smoothed it: at JPEG's margins a sharp 20 MP photo left 5–9 codes (two photos from JPEGs
    /// kept 2), 6–10 × f left 3 here and there, 12 × f kept 2 at 1/2 and 1/4 and 16 × f at 1/8, whose three
    /// roundings stray further (FORMAT=pyramid scripts/measure-webp-shrink.py, BENCHMARKS.md).
    static func decodeReductionGap(factor: Double, space: WorkingSpace, method: DecodeReductions.Method = .boxes) -> Double? {
        switch (space, method) {
        case (.srgb, .levels): return factor <= 4 ? 12 : 16
        case (.srgb, .boxes): return factor <= 2 ? 3.5 : factor <= 4 ? 3.6 : 3.75
        case (.srgb, .decodedBoxes): return factor <= 2 ? 3.5 : 4
        case (.srgb, .wholeRescale): return 7.5
        case (.linear, _): return factor <= 2 ? 32 : nil
        }
    }

    /// The shrink the exact resample must keep after a decoder's reduction, at fidelities below exact: 2 for `high`
    /// wherever the decoder averages like JPEG's DCT (measured on five photos at widths 256–1600, 4:2:0 and 4:4:4
    /// at quality 90: 50.3 dB at worst in linear light, 54.0 dB in sRGB; scripts/measure-fidelity.py,
    /// BENCHMARKS.md), and 1 for `fast` (the decoded image no smaller than the target, as Pillow's draft mode:
    /// 37.4 dB at worst).
    /// Decoders not measured by PSNR (WebP's rescaler, a TIFF pyramid's levels) keep their margins of
    /// `decodeReductionGap` at `high`, which hold the result within 2 codes.
    static func fidelityGap(_ fidelity: Fidelity, factor: Double, space: WorkingSpace, method: DecodeReductions.Method) -> Double? {
        switch (fidelity, method) {
        case (.exact, _): return nil
        case (.fast, _): return 1
        case (.high, .boxes): return 2
        case (.high, _): return decodeReductionGap(factor: factor, space: space, method: method)
        }
    }

    /// The factor a source reduces by for a shrink of `shrink`: the largest it offers within the gap; for a
    /// rescaling decoder any factor from 1.5 (below that the decode saves little).
    static func decodeReduction(_ reductions: DecodeReductions, shrink: Double, space: WorkingSpace,
                                fidelity: Fidelity = .high) -> Double? {
        switch reductions.method {
        case .boxes, .decodedBoxes, .levels:
            return reductions.factors.sorted().last { factor in
                fidelityGap(fidelity, factor: Double(factor), space: space, method: reductions.method)
                    .map { shrink >= $0 * Double(factor) } ?? false
            }.map(Double.init)
        case .wholeRescale:
            // The gap is one margin wherever it is defined, so the factor is shrink / margin, capped where the gap
            // stops being defined (2 in linear light, whose margin was measured only at 1/2).
            guard reductions.rescales, let gap = fidelityGap(fidelity, factor: 1, space: space, method: .wholeRescale) else { return nil }
            let cap = fidelity == .fast || fidelityGap(fidelity, factor: shrink / gap, space: space, method: .wholeRescale) != nil
                ? Double.infinity : 2
            let factor = min(shrink / gap, cap)
            return factor >= 1.5 ? factor : nil
        }
    }

    /// A source whose decoder can reduce (JPEG), read only through flips and turns (its orientation) by a resample
    /// chain that shrinks both axes by at least `decodeReductionGap` × f (exact ratios), is decoded at 1/f (the largest such f
    /// it offers); the resamples then sample the reduced image where they would have sampled the original.
    private mutating func reduceInDecoder() -> Bool {
        for s in nodes.indices {
            guard case .source(let name) = nodes[s].primitive, let reductions = decodeReductions[name],
                  !reductions.factors.isEmpty || reductions.rescales,
                  consumers(of: s).count == 1 else { continue }
            // The geometry right after the source (orientation), then up to two resamples, each read only by the next.
            var geometry = [Int]()
            var next = consumers(of: s)[0], previous = s
            while Orientation(nodes[next].primitive) != nil, readOnlyBy(next, previous), next != output,
                  consumers(of: next).count == 1 {
                geometry.append(next)
                previous = next
                next = consumers(of: next)[0]
            }
            let chain = resampleChain(after: previous)
            guard let last = chain.last else { continue }
            let upright = nodes[geometry.last ?? s], target = nodes[last]
            let shrink = min(Double(upright.width) / Double(max(1, target.width)),
                             Double(upright.height) / Double(max(1, target.height)))
            guard let f = Self.decodeReduction(reductions, shrink: shrink, space: workingSpace, fidelity: fidelity) else { continue }
            let stored = nodes[s]
            if let level = reductions.levels.first(where: { Double($0.factor) == f }) {
                nodes[s].width = level.width
                nodes[s].height = level.height
            } else {
                nodes[s].width = Int((Double(stored.width) / f).rounded(.up))
                nodes[s].height = Int((Double(stored.height) / f).rounded(.up))
            }
            for g in geometry {
                let input = nodes[nodes[g].inputs[0]]
                let swaps = Orientation(nodes[g].primitive)!.swapsAxes
                nodes[g].width = swaps ? input.height : input.width
                nodes[g].height = swaps ? input.width : input.height
            }
            let reduced = nodes[geometry.last ?? s]
            var resampled = Set<Primitive.Axis>()
            for i in chain {
                guard case .resample(let axis, let kernel, _) = nodes[i].primitive else { continue }
                let horizontal = axis == .horizontal
                // The decoder's reduced size along this axis (the orientation may have swapped the axes).
                let reducedSize = horizontal ? reduced.width : reduced.height
                nodes[i].primitive = .resample(axis: axis, kernel: kernel, reduced: BoxReduction(
                    factor: Int(f.rounded()), originalSize: horizontal ? upright.width : upright.height,
                    reducedSize: reductions.method == .wholeRescale ? reducedSize : nil))
                if horizontal && !resampled.contains(.vertical) { nodes[i].height = reduced.height }
                if !horizontal && !resampled.contains(.horizontal) { nodes[i].width = reduced.width }
                resampled.insert(axis)
            }
            note("shrink on load: \(stored.origin) decoded at 1/\(f == f.rounded() ? String(Int(f)) : String(format: "%.2f", f)) \(reductions.how) (\(nodes[s].width)×\(nodes[s].height) "
                 + "instead of \(stored.width)×\(stored.height)), then \(target.op) [\(target.origin)] resamples exactly to "
                 + "\(target.width)×\(target.height) (fidelity \(fidelity.rawValue): \(fidelity.promise))")
            return true
        }
        return false
    }

    /// A flip, turn or transpose read only by a resample chain that shrinks the image runs after the chain
    /// instead, on the small result (the chain resamples the other axis where the turn swaps axes). Resampling's
    /// sample positions are symmetric, so both orders give the same image up to float rounding (nearest's are not
    /// at ties, so it stays where it is); a sideways
    /// photo's orientation then costs a turn of the thumbnail, not of the photo, and the source reaches the
    /// resample directly, so shrinking on decode applies.
    private mutating func moveTurnsPastShrinks() {
        for g in nodes.indices {
            guard let turn = Orientation(nodes[g].primitive), nodes[g].post.isEmpty, consumers(of: g).count == 1 else { continue }
            // Not past nearest: its ties (a sample exactly between two pixels, every sample at a 2× shrink) go to
            // one side, so a mirrored image picks the other pixels (seed 114 of the random chains).
            let chain = resampleChain(after: g)
            guard let last = chain.last, chain.allSatisfy({ nodes[$0].post.isEmpty }),
                  nodes[last].width * nodes[last].height < nodes[g].width * nodes[g].height else { continue }
            let swaps = turn.swapsAxes
            let geometry = nodes[g], final = nodes[last]
            var moved = chain.map { nodes[$0] }
            for k in moved.indices {
                guard case let .resample(axis, kernel, reduced) = moved[k].primitive else { continue }
                let other: Primitive.Axis = axis == .horizontal ? .vertical : .horizontal
                moved[k].primitive = .resample(axis: swaps ? other : axis, kernel: kernel, reduced: reduced)
                if swaps { (moved[k].width, moved[k].height) = (moved[k].height, moved[k].width) }
            }
            // Turned axes can leave the horizontal pass first; a shrink in height goes first, as resize lowers it
            // (the horizontal pass then gathers only the output's rows: a sideways 20 MP photo's thumbnail
            // 0.33 → 0.15 s).
            if moved.count == 2, case .resample(.horizontal, _, _) = moved[0].primitive,
               case .resample(.vertical, _, _) = moved[1].primitive, moved[1].height < moved[0].height {
                let inputWidth = nodes[geometry.inputs[0]].width, height = moved[1].height
                moved.swapAt(0, 1)
                moved[0].width = inputWidth
                moved[1].height = height
            }
            // The resamples take the turn's slots, reading its input; the turn takes the last slot.
            let slots = [g] + chain
            for (k, node) in moved.enumerated() {
                nodes[slots[k]] = node
                nodes[slots[k]].inputs = [k == 0 ? geometry.inputs[0] : slots[k - 1]]
            }
            nodes[last] = geometry
            nodes[last].inputs = [slots[slots.count - 2]]
            nodes[last].width = final.width
            nodes[last].height = final.height
            note("\(geometry.op) [\(geometry.origin)] moved after \(final.op) [\(final.origin)]: it turns the \(final.width)×\(final.height) result, not the \(geometry.width)×\(geometry.height) image")
        }
    }

    /// The resample nodes (one per axis, at most two, not yet reduced, not nearest: its ties are one-sided) that read
    /// `start` and then each other, each read by nothing else: the shape every shrink rewrite looks for.
    private func resampleChain(after start: Int) -> [Int] {
        var chain = [Int]()
        guard consumers(of: start).count == 1 else { return chain }
        var next = consumers(of: start)[0], previous = start
        while chain.count < 2, case .resample(let axis, let kernel, nil) = nodes[next].primitive,
              kernel != .nearest, readOnlyBy(next, previous) {
            if let last = chain.last, case .resample(axis, _, _) = nodes[last].primitive { break }
            chain.append(next)
            previous = next
            guard next != output, consumers(of: next).count == 1 else { break }
            next = consumers(of: next)[0]
        }
        return chain
    }

    /// A shrink of both axes whose passes both suit fixed point (the sRGB working space, few enough taps:
    /// `FixedPointResample`) and whose result reaches the output through moves alone runs its horizontal pass
    /// first: on opaque 8-bit samples the vertical pass then finishes the horizontal one's integer sums and rounds
    /// once, as the output would (the same work as vertical first). Before other filters, whose input the rounding
    /// would change, the vertical pass stays first, reading the samples itself.
    private mutating func shrinkInFixedPointOrder() {
        guard workingSpace == .srgb else { return }
        for v in nodes.indices {
            guard v != output, case let .resample(.vertical, kernel, nil) = nodes[v].primitive, nodes[v].post.isEmpty,
                  consumers(of: v).count == 1 else { continue }
            let h = consumers(of: v)[0], input = nodes[v].inputs[0]
            guard case .resample(.horizontal, kernel, nil) = nodes[h].primitive, nodes[h].inputs == [v],
                  nodes[h].post.isEmpty, reachesOutputByMoves(h) else { continue }
            let (width, height) = (nodes[input].width, nodes[input].height), (outWidth, outHeight) = (nodes[h].width, nodes[h].height)
            guard outWidth < width, outHeight < height,
                  FixedPointResample.fits(kernel: kernel, inSize: width, outSize: outWidth, reduced: nil),
                  FixedPointResample.fits(kernel: kernel, inSize: height, outSize: outHeight, reduced: nil) else { continue }
            let vertical = nodes[v]
            nodes[v] = nodes[h]
            nodes[v].inputs = [input]
            nodes[v].height = height
            nodes[h] = vertical
            nodes[h].inputs = [v]
            nodes[h].width = outWidth
            note("\(vertical.op) [\(vertical.origin)]: horizontal pass first (opaque 8-bit samples then shrink in fixed point)")
        }
    }

    /// Whether node `i`'s rows reach the output changed by nothing but moves (crops, flips, turns, pads).
    private func reachesOutputByMoves(_ i: Int) -> Bool {
        var node = i
        while node != output {
            let next = consumers(of: node)
            guard next.count == 1, nodes[next[0]].post.isEmpty else { return false }
            switch nodes[next[0]].primitive.descriptor.onSamples {
            case .moves, .movesFilling: node = next[0]
            default: return false
            }
        }
        return true
    }

    /// Puts `node` at `position`, shifting later nodes (and references to them) up by one.
    private mutating func insert(_ node: Plan.Node, at position: Int) {
        for i in nodes.indices { nodes[i].inputs = nodes[i].inputs.map { $0 >= position ? $0 + 1 : $0 } }
        if output >= position { output += 1 }
        nodes.insert(node, at: position)
    }

    /// Removes nodes the output no longer depends on (absorbed or bypassed by the rewrites above; lowering already
    /// leaves out recipe nodes the output never used) and renumbers the rest, keeping topological order.
    private mutating func dropDeadNodes() {
        var live = Set<Int>(), pending = [output]
        while let i = pending.popLast() {
            guard live.insert(i).inserted else { continue }
            pending += nodes[i].inputs
        }
        guard live.count < nodes.count else { return }
        var newIndex = [Int: Int]()
        var kept = [Plan.Node]()
        for i in nodes.indices where live.contains(i) {
            newIndex[i] = kept.count
            var node = nodes[i]
            node.inputs = node.inputs.map { newIndex[$0]! }
            kept.append(node)
        }
        nodes = kept
        output = newIndex[output]!
    }
}
