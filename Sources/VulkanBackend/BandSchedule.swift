import FilterCore

/// How a render is cut into bands of output rows so that every buffer a kernel binds fits the device's limit
/// (one band when the image fits). For each band: the rows of every node it needs, from `Plan.rowsNeeded`.
package struct BandSchedule {
    package let bands: [Range<Int>]
    /// needed[band][node]: the rows of the node computed for the band, nil when the band does not need the node.
    let needed: [[Range<Int>?]]
    /// Most rows any band needs of each node (buffers are sized once for all bands).
    package let capacity: [Int]
    /// Bytes of one working pixel on the device: 16 (RGBA float32) or 8 (packed halves).
    package let pixelBytes: Int
    /// Which stored sources are read from their samples and which results overwrite their inputs.
    let buffers: BufferPlan

    /// `groups` is the device's maxComputeWorkGroupCount (x, y): kernels dispatch 16×16 groups over a node's
    /// width and the rows a band needs of it, so those must stay within it too. `workLimit` (pixel-taps) bounds one
    /// node's dispatch in a band, so that a submit can be cut before a driver's watchdog would end it.
    /// `memoryLimit` is the device memory the working buffers may take at their peak: bands shrink until they fit
    /// (a blur of a photo larger than the device's free memory still renders). `maxBandRows` starts the bands at
    /// that height at most (a streamed render's bands, `VulkanRenderer.renderStreaming`).
    package init(plan: Plan, limit: Int, sourceRowBytes: [String: Int], alignment: Int, groups: (x: Int, y: Int),
                 workLimit: Double = .infinity, memoryLimit: Int = .max, pixelBytes: Int = 16,
                 sharing: Bool = true, maxBandRows: Int? = nil) throws {
        self.pixelBytes = pixelBytes
        let buffers = BufferPlan(plan: plan, sourceRowBytes: sourceRowBytes, sharing: sharing)
        self.buffers = buffers
        let output = plan.nodes[plan.output]
        // Kernels cover a node's width (16 a group) and, per band, its needed rows (16 a group); the horizontal
        // pass of a separable filter covers its input's rows, which are counted as that node's rows.
        if let wide = plan.nodes.first(where: { ($0.width + 15) / 16 > groups.x }) {
            throw VulkanError(.tooLarge, "node \"\(wide.origin)\" (\(wide.op)) is \(wide.width) pixels wide; the device "
                + "dispatches at most \(groups.x) work groups of 16 in x (maxComputeWorkGroupCount)")
        }
        let maxRows = groups.y * 16
        func capacities(_ needed: [[Range<Int>?]]) -> [Int] {
            var capacity = [Int](repeating: 0, count: plan.nodes.count)
            for band in needed { for (i, rows) in band.enumerated() { capacity[i] = max(capacity[i], rows?.count ?? 0) } }
            return capacity
        }
        func overflowing(_ capacity: [Int]) -> Int? {
            plan.nodes.indices.first { i in
                let node = plan.nodes[i]
                if capacity[i] > maxRows { return true }
                if !buffers.withoutBuffer.contains(i), capacity[i] * node.width * pixelBytes > limit { return true }
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
                format: "node \"%@\" (%@) needs %d rows of %d pixels at once (%.1f MiB); the device binds at most %.1f MiB (maxStorageBufferRange) and dispatches at most %d rows (maxComputeWorkGroupCount)",
                n.origin, n.op, rows, n.width, Double(rows * n.width * pixelBytes) / 1_048_576, Double(limit) / 1_048_576, maxRows))
        }
        // Bands also bound the work of one node's dispatch; halving for that stops above 16 rows (one work group)
        // and where it no longer cuts the heaviest dispatch by a quarter (a node read whole, as by a quarter turn).
        let taps = plan.nodes.indices.map { WorkEstimate.taps(ofNode: $0, in: plan) }
        func heaviest(_ capacity: [Int]) -> Double {
            plan.nodes.indices.map { Double(capacity[$0]) * Double(plan.nodes[$0].width) * taps[$0] }.max() ?? 0
        }
        typealias Candidate = (bands: [Range<Int>], needed: [[Range<Int>?]], capacity: [Int], work: Double)
        var bandRows = max(1, min(output.height, maxBandRows ?? .max)), previous: Candidate?
        while true {
            let bands = stride(from: 0, to: output.height, by: bandRows).map { $0..<min(output.height, $0 + bandRows) }
            let needed = bands.map { plan.rowsNeeded(forOutput: $0) }
            let capacity = capacities(needed)
            let fits = overflowing(capacity) == nil
                && Self.workingBytes(buffers, capacity: capacity, pixelBytes: pixelBytes) <= memoryLimit
            if fits || bandRows == 1 {
                var chosen: Candidate = (bands, needed, capacity, heaviest(capacity))
                if let previous, chosen.work > previous.work * 0.75 { chosen = previous }
                if chosen.bands.count < bands.count || !fits || chosen.work <= workLimit || bandRows < 32 {
                    self.bands = chosen.bands
                    self.needed = chosen.needed
                    self.capacity = chosen.capacity
                    return
                }
                previous = chosen
            }
            bandRows = max(1, bandRows / 2)
        }
    }
}

extension BandSchedule {
    /// The work the bands do beyond one whole pass, as a fraction of it: the rows each band computes again because
    /// a neighbourhood below or above reads them (pixel-taps, `WorkEstimate`). A node's taps are counted over the
    /// larger of its rows and each input's, since a window's first pass (a separable blur's horizontal one) covers
    /// the input rows the band reads. 0 for one band.
    func repeatedWork(_ plan: Plan) -> Double {
        var whole = 0.0, banded = 0.0
        for (i, node) in plan.nodes.enumerated() {
            let taps = WorkEstimate.taps(ofNode: i, in: plan)
            func pixels(_ rows: (Int) -> Int) -> Double {
                Double(([i] + node.inputs).map { plan.nodes[$0].width * rows($0) }.max() ?? 0)
            }
            whole += taps * pixels { plan.nodes[$0].height }
            for band in needed where band[i] != nil { banded += taps * pixels { band[$0]?.count ?? 0 } }
        }
        return whole > 0 ? banded / whole - 1 : 0
    }

    /// Device bytes the working buffers of a render will take at their peak, taken and given back as `VulkanRun`
    /// does (`BufferPlan`); two-pass primitives hold a second buffer while they run.
    func plannedWorkingBytes(_ plan: Plan) -> Int { Self.workingBytes(buffers, capacity: capacity, pixelBytes: pixelBytes) }

    /// The peak working bytes of bands holding at most `capacity[node]` rows of each node.
    static func workingBytes(_ buffers: BufferPlan, capacity: [Int], pixelBytes: Int) -> Int {
        let plan = buffers.plan
        let lastUse = buffers.lastWorkingReaders(needed: capacity.map { $0 > 0 ? 0..<$0 : nil })
        var free = [Int](), live = 0, peak = 0
        func take(_ bytes: Int) -> Int {
            if let reused = free.indices.filter({ free[$0] >= bytes }).min(by: { free[$0] < free[$1] }) {
                return free.remove(at: reused)
            }
            live += bytes
            peak = max(peak, live)
            return bytes
        }
        var held = [Int: Int]()  // each node's buffer size
        let fused = buffers.fusedCombinations
        for (i, node) in plan.nodes.enumerated() where capacity[i] > 0 {
            // A fused blur's kernels store its combination's result; the combination itself takes nothing.
            let result = buffers.fusedBlurs[i] ?? i
            let stores = !fused.contains(i) && (!buffers.withoutBuffer.contains(i) || result != i)
            if stores {
                let bytes = max(1, capacity[result]) * plan.nodes[result].width * pixelBytes
                let over = buffers.overwritable(i).first { lastUse[$0.input] == $0.reader && (held[$0.input] ?? 0) >= bytes }
                held[result] = over.flatMap { held.removeValue(forKey: $0.input) } ?? take(bytes)
            }
            if stores, VulkanRun.holdsTemporary(node.primitive) {
                // The temporary is shaped like the input's band and given back after the second pass.
                let input = node.inputs[0]
                free.append(take(max(1, capacity[input]) * plan.nodes[input].width * pixelBytes))
            }
            for input in Set(node.inputs) where lastUse[input] == i {
                if let bytes = held.removeValue(forKey: input) { free.append(bytes) }
            }
        }
        return peak
    }
}

extension VulkanRenderer {
    /// How a render of `plan` to `format` would run on this device: the number of bands, the most rows in one, the
    /// device bytes its working buffers would take at their peak, and how buffers are shared (for `--explain`).
    package static func plan(_ plan: Plan, sourceRowBytes: [String: Int], sourceFormats: [String: PixelFormat],
                             format: PixelFormat) throws -> (bands: Int, rows: Int, workingBytes: Int, sharing: [String]) {
        let context = try VulkanContext.shared()
        let sourceBytes = plan.nodes.reduce(0) { total, node in
            guard case .source(let name) = node.primitive else { return total }
            return total + (sourceRowBytes[name] ?? node.width * 16) * node.height
        }
        let memory = VulkanRun.memoryForWorkingBuffers(context, output: plan.nodes[plan.output], format: format,
                                                       sourceBytes: sourceBytes)
        let half = VulkanRun.usesHalves(context, plan: plan, sourceRowBytes: sourceRowBytes, sourceFormats: sourceFormats,
                                        format: format, limit: context.limits.maxStorageBufferRange,
                                        groups: context.limits.maxWorkGroupCount, memory: memory)
        let schedule = try BandSchedule(plan: plan, limit: context.limits.maxStorageBufferRange,
                                        sourceRowBytes: sourceRowBytes, alignment: context.limits.minStorageBufferOffsetAlignment,
                                        groups: context.limits.maxWorkGroupCount, workLimit: context.submitWork,
                                        memoryLimit: memory, pixelBytes: half ? 8 : 16)
        return (schedule.bands.count, schedule.bands.map(\.count).max() ?? 0, schedule.plannedWorkingBytes(plan),
                schedule.buffers.summary)
    }
}
