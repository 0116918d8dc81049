import FilterCore

/// How a render is cut into bands of output rows so that every buffer a kernel binds fits the device's limit
/// (one band when the image fits). For each band: the rows of every node it needs, from `Plan.rowsNeeded`.
struct BandSchedule {
    let bands: [Range<Int>]
    /// needed[band][node]: the rows of the node computed for the band, nil when the band does not need the node.
    let needed: [[Range<Int>?]]
    /// Most rows any band needs of each node (buffers are sized once for all bands).
    let capacity: [Int]

    init(plan: Plan, limit: Int, sourceRowBytes: [String: Int], alignment: Int) throws {
        let output = plan.nodes[plan.output]
        func capacities(_ needed: [[Range<Int>?]]) -> [Int] {
            var capacity = [Int](repeating: 0, count: plan.nodes.count)
            for band in needed { for (i, rows) in band.enumerated() { capacity[i] = max(capacity[i], rows?.count ?? 0) } }
            return capacity
        }
        func overflowing(_ capacity: [Int]) -> Int? {
            plan.nodes.indices.first { i in
                let node = plan.nodes[i]
                if capacity[i] * node.width * 16 > limit { return true }
                if case .source(let name) = node.primitive, let rowBytes = sourceRowBytes[name] {
                    return capacity[i] * rowBytes + alignment + 4 > limit
                }
                return false
            }
        }
        // Single-row bands need the least; if even they overflow (a node read whole, as by a quarter turn, or a
        // row wider than the limit), no banding helps.
        let probes = Set([0, output.height / 2, output.height - 1]).map { $0..<($0 + 1) }
        if let node = overflowing(capacities(probes.map { plan.rowsNeeded(forOutput: $0) })) {
            let n = plan.nodes[node]
            let rows = probes.map { plan.rowsNeeded(forOutput: $0)[node]?.count ?? 0 }.max()!
            throw VulkanError(.tooLarge, String(
                format: "node \"%@\" (%@) needs %d rows of %d pixels at once (%.1f MiB); the device binds at most %.1f MiB (maxStorageBufferRange)",
                n.origin, n.op, rows, n.width, Double(rows * n.width * 16) / 1_048_576, Double(limit) / 1_048_576))
        }
        var bandRows = output.height
        while true {
            let bands = stride(from: 0, to: output.height, by: bandRows).map { $0..<min(output.height, $0 + bandRows) }
            let needed = bands.map { plan.rowsNeeded(forOutput: $0) }
            let capacity = capacities(needed)
            if overflowing(capacity) == nil || bandRows == 1 {
                self.bands = bands
                self.needed = needed
                self.capacity = capacity
                return
            }
            bandRows = max(1, bandRows / 2)
        }
    }
}
