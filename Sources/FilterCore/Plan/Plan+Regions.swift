/// Regions of interest by rows: which rows of each input a node reads to produce a band of its own rows. Backends
/// that work in bands (Vulkan tiles larger than the device's buffers) use it; results never depend on the bands.
extension Plan {
    /// Rows of input `k` of node `index` read to produce rows `rows` of the node, clamped to the input (never empty
    /// when the node reads the input at all); nil when the node does not read that input's pixels (a generator's
    /// sizing input).
    package func inputRows(of index: Int, input k: Int, for rows: Range<Int>) -> Range<Int>? {
        let node = nodes[index]
        let input = nodes[node.inputs[k]]
        let height = input.height
        func band(_ lo: Int, _ hi: Int) -> Range<Int> {
            let first = min(max(lo, 0), height - 1)
            return first..<max(first + 1, min(hi, height))
        }
        let (a, b) = (rows.lowerBound, rows.upperBound)
        switch node.primitive {
        case .generate, .source:
            return nil
        case .point, .unsharpCombine, .toneAdjust, .blend, .blendWithMask:
            return band(a, b)
        case .boxBlur(let r):
            // From the start of the running-sum segment the band begins in (Primitive.boxSegment).
            let segment = Primitive.boxSegment(radius: r)
            return band(a / segment * segment - r, b + r)
        case .separableConvolution, .median, .morphology, .bilateral, .convolve, .sharpenLuminance, .sobel:
            // The window's rows above and below, declared once (Primitive.verticalReach) for both backends.
            guard let reach = node.primitive.verticalReach else { return 0..<height }
            return band(a - reach, b + reach)
        case .lineBlur(let blur):
            let needed = blur.inputRows(for: rows)
            return band(needed.lo, needed.hi)
        case let .resample(axis, kernel, reduced):
            guard axis == .vertical else { return band(a, b) }
            let weights = ResampleWeights(kernel: kernel, inSize: height, outSize: node.height, reduced: reduced)
            let needed = weights.inputRange(for: rows)
            return band(needed.lowerBound, needed.upperBound)
        case .boxReduce(_, let y):
            return band(a * y, b * y)
        case .crop(_, let y):
            return band(a + y, b + y)
        case .pad(let top, _, _):
            return band(a - top, b - top)
        case .flip(let horizontal):
            return horizontal ? band(a, b) : band(height - b, height - a)
        case .rotate(let turns):
            return turns == 2 ? band(height - b, height - a) : 0..<height
        case .transpose:
            return 0..<height
        case let .warp(map, kernel, _):
            let needed = map.inputRows(for: rows, outWidth: node.width, kernel: kernel)
            return band(needed.lo, needed.hi)
        }
    }

    /// For each node, the last node (in plan order) that reads its pixels when the nodes needed are those with rows
    /// in `needed`: where a backend may give its buffer back. `Int.max` for the output, −1 for nodes nothing reads
    /// (a generator's sizing input). The Vulkan run and its memory estimate both use this, so they agree.
    package func lastReaders(needed: [Range<Int>?]) -> [Int] {
        var last = [Int](repeating: -1, count: nodes.count)
        for (i, node) in nodes.enumerated() {
            guard let rows = needed[i] else { continue }
            for (k, input) in node.inputs.enumerated() where inputRows(of: i, input: k, for: rows) != nil { last[input] = i }
        }
        last[output] = Int.max
        return last
    }

    /// For output rows `rows`: the rows of every node that must be computed (nil for nodes not needed), found by
    /// walking the graph from the output back to the sources and merging what each consumer asks for.
    package func rowsNeeded(forOutput rows: Range<Int>) -> [Range<Int>?] {
        var needed = [Range<Int>?](repeating: nil, count: nodes.count)
        needed[output] = rows
        for index in nodes.indices.reversed() {
            guard let own = needed[index] else { continue }
            for k in nodes[index].inputs.indices {
                guard let wanted = inputRows(of: index, input: k, for: own) else { continue }
                let input = nodes[index].inputs[k]
                if let existing = needed[input] {
                    needed[input] = min(existing.lowerBound, wanted.lowerBound)..<max(existing.upperBound, wanted.upperBound)
                } else {
                    needed[input] = wanted
                }
            }
        }
        return needed
    }
}
