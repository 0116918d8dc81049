import FilterCore

/// Where each node's result lives on the device: which stored sources their readers convert from the upload's
/// samples (taking no working buffer), and which results may overwrite an input they are the last to read. The band
/// schedule counts device memory with it and the run takes buffers with it, so the planned figure is the taken one.
///
/// Working buffers come from a pool that hands back the smallest free buffer large enough (a rotation's smaller
/// result reuses its source's buffer), and a result goes over an input's buffer where the primitive allows it
/// (`InputReads.atItsPixel`, or a two-pass primitive whose second pass reads only its temporary). On a 3840×2160
/// photo these took a per-pixel recipe from two working buffers to one and a rotation with sharpening from four
/// to two.
struct BufferPlan {
    let plan: Plan
    /// Stored (8/16-bit) sources that at least one reader converts from their samples (`PackedSamples`).
    let packed: Set<Int>
    /// Nodes that take no working buffer: stored sources that every reader converts from their samples, and blurs
    /// whose combination is fused into their last pass.
    let withoutBuffer: Set<Int>
    /// Unsharp masking's blurs (a separable convolution read by one combination, which reads it at its pixel) mapped
    /// to that combination: the blur's last pass stores the combination (`STORE_UNSHARP`), so the blurred image is
    /// never stored and the combination may overwrite the original it was the last to read.
    let fusedBlurs: [Int: Int]
    /// Whether results go over inputs at all (`sharing: false`).
    let inPlace: Bool

    /// `sourceRowBytes`: each source's stored row (0 for working floats, which are copied into working buffers).
    /// `sharing: false` gives every node a working buffer of its own (stored sources unpacked, blurs stored), the
    /// plain way, to compare.
    init(plan: Plan, sourceRowBytes: [String: Int], sharing: Bool = true) {
        self.plan = plan
        inPlace = sharing
        let neighbourhoodsReadSamples = plan.workingSpace == .srgb
        self.neighbourhoodsReadSamples = neighbourhoodsReadSamples
        var readers = [Int: [Int]]()
        for (i, node) in plan.nodes.enumerated() { for input in Set(node.inputs) { readers[input, default: []].append(i) } }
        var packed = Set<Int>(), withoutBuffer = Set<Int>(), fused = [Int: Int]()
        for (i, node) in plan.nodes.enumerated() where sharing && i != plan.output {
            if case .source(let name) = node.primitive, (sourceRowBytes[name] ?? 0) > 0 {
                let reads = (readers[i] ?? []).map { Self.reads(plan.nodes[$0]) }
                if reads.contains(where: { $0 != .neighbourhood }) || neighbourhoodsReadSamples { packed.insert(i) }
                if !reads.contains(.neighbourhood) || neighbourhoodsReadSamples { withoutBuffer.insert(i) }
            }
            if node.primitive.descriptor is Primitives.SeparableConvolution, node.post.isEmpty,
               let only = readers[i], only.count == 1, plan.nodes[only[0]].primitive.descriptor is Primitives.UnsharpCombine,
               plan.nodes[only[0]].inputs.count == 2, plan.nodes[only[0]].inputs[1] == i,
               plan.nodes[only[0]].inputs[0] != i {
                fused[i] = only[0]
                withoutBuffer.insert(i)
            }
        }
        self.packed = packed
        self.withoutBuffer = withoutBuffer
        fusedBlurs = fused
        fusedCombinations = Set(fused.values)
    }

    /// The combinations whose blur's last pass computes them (`fusedBlurs`' values).
    let fusedCombinations: Set<Int>

    /// One line for each shared buffer, for `--explain`.
    var summary: [String] {
        let packedLines = packed.sorted().map { i in
            "#\(i) read from its samples by "
                + (neighbourhoodsReadSamples ? "every kernel reading it (sRGB working values: the conversion is arithmetic)"
                   : "the kernels that read each pixel once")
                + (withoutBuffer.contains(i) ? "" : " (unpacked once for the rest)")
        }
        let fusedLines = fusedBlurs.sorted { $0.key < $1.key }.map { blur, combination in
            "#\(combination) computed by #\(blur)'s last pass (the blur is never stored)"
        }
        return packedLines + fusedLines
    }

    static func reads(_ node: Plan.Node) -> InputReads {
        (node.primitive.descriptor as? any VulkanPrimitive)?.inputReads ?? .neighbourhood
    }

    /// Whether node `index` reads `input` as the upload's samples rather than a working buffer.
    func readsSamples(_ index: Int, input: Int) -> Bool {
        packed.contains(input) && (Self.reads(plan.nodes[index]) != .neighbourhood || neighbourhoodsReadSamples)
    }

    /// Whether kernels that read each pixel several times also read a stored source from its samples. In sRGB
    /// working values a sample's conversion is arithmetic (code ÷ 255 or × 1/65535), a few instructions a tap, and
    /// the working copy it saves is the largest buffer of a thumbnail (3840×2160: 127 of 142 MiB; lavapipe's
    /// resample pass took 0.30 s from the copy, 0.42–0.49 s from the samples). In linear light it is a table load a
    /// channel, which doubled that pass (0.56 → 1.17 s), so linear light keeps the copy.
    let neighbourhoodsReadSamples: Bool

    /// For the rows each node computes in a band, the last node to read each working buffer (reads of samples do
    /// not count; the output's is never given back).
    func lastWorkingReaders(needed: [Range<Int>?]) -> [Int] {
        var last = [Int](repeating: -1, count: plan.nodes.count)
        for (i, node) in plan.nodes.enumerated() {
            guard let rows = needed[i] else { continue }
            for (k, input) in node.inputs.enumerated()
            where plan.inputRows(of: i, input: k, for: rows) != nil && !readsSamples(i, input: input) {
                last[input] = i
            }
        }
        last[plan.output] = Int.max
        return last
    }

    /// The buffers the result that node `index`'s kernels store may overwrite, as far as the plan's shapes tell:
    /// each an input read as working values, of the result's width, whose last reader must be `reader`. A kernel
    /// that reads its inputs at its pixel may overwrite one of its size (`atItsPixel`: the run also checks the rows
    /// line up); a two-pass primitive may overwrite the input its first pass alone reads. A fused blur offers both:
    /// its combination's inputs, and its own input, which its last pass no longer reads.
    func overwritable(_ index: Int) -> [(input: Int, reader: Int, atItsPixel: Bool)] {
        guard inPlace else { return [] }
        var found = [(input: Int, reader: Int, atItsPixel: Bool)]()
        let result = fusedBlurs[index] ?? index
        let resultNode = plan.nodes[result]
        func candidate(_ input: Int, of reader: Int) -> Bool {
            !withoutBuffer.contains(input) && !readsSamples(reader, input: input)
                && plan.nodes[input].width == resultNode.width
        }
        if Self.reads(resultNode) == .atItsPixel {
            for input in resultNode.inputs where candidate(input, of: result) && plan.nodes[input].height == resultNode.height {
                found.append((input, result, true))
            }
        }
        let node = plan.nodes[index]
        if VulkanRun.holdsTemporary(node.primitive), let input = node.inputs.first, candidate(input, of: index) {
            found.append((input, index, false))
        }
        return found
    }
}
