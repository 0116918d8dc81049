/// Regions of interest by rows: which rows of each input a node reads to produce a band of its own rows. Backends
/// that work in bands (Vulkan tiles larger than the device's buffers) use it; results never depend on the bands.
extension Plan {
    /// Rows of input `k` of node `index` read to produce rows `rows` of the node, clamped to the input (never empty
    /// when the node reads the input at all); nil when the node does not read that input's pixels (a generator's
    /// sizing input).
    package func inputRows(of index: Int, input k: Int, for rows: Range<Int>) -> Range<Int>? {
        Self.clamped(rowRule(of: index).rows(rows), height: nodes[nodes[index].inputs[k]].height)
    }

    /// Rows a rule asked for, clamped to an input `height` rows tall (never empty); nil stays nil.
    package static func clamped(_ wanted: Range<Int>?, height: Int) -> Range<Int>? {
        guard let wanted else { return nil }
        let first = min(max(wanted.lowerBound, 0), height - 1)
        return first..<max(first + 1, min(wanted.upperBound, height))
    }

    /// For each node, the first of its rows a render from the output's top reads: a source below a crop need not be
    /// decoded above it. Nodes read whole (by a flip, a turn), or read by nothing, start at 0.
    package func firstRowsRead() -> [Int] {
        var first = [Int?](repeating: nil, count: nodes.count)
        first[output] = 0
        // Consumers usually follow their inputs; sweeping until nothing moves holds whatever the order.
        var moved = true
        while moved {
            moved = false
            for index in nodes.indices.reversed() {
                guard let row = first[index] else { continue }
                let rule = rowRule(of: index)
                for input in nodes[index].inputs {
                    let from = rule.holdsWhole ? 0
                        : (Self.clamped(rule.rows(row..<row + 1), height: nodes[input].height)?.lowerBound ?? Int.max)
                    if from < first[input] ?? Int.max {
                        first[input] = from
                        moved = true
                    }
                }
            }
        }
        return first.map { $0 ?? 0 }
    }

    /// How node `index` reads its inputs' rows (its descriptor's rule at its shape).
    package func rowRule(of index: Int) -> RowRule {
        nodes[index].primitive.descriptor.rowRule(shape(of: index))
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
