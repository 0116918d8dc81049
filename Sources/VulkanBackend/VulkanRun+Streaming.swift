import CVulkan
import FilterCore
import Foundation

extension VulkanRenderer {
    /// Renders `plan` a band of output rows at a time, each band its own submit, so that the host and the device
    /// overlap: while the device runs band b, the host reads band b + 1's source rows from `sources` (the decoders)
    /// and hands band b − 1's rows to `deliver` (the encoder). Sources and the output are held a band at a time
    /// (two bands' worth, one for the device and one for the host), never whole. The pixels are those of `render`:
    /// every node computes the rows a band needs of it, with the overlap its neighbourhood reads.
    ///
    /// Returns false, having read nothing, where the plan does not stream: fewer than two bands, or a source whose
    /// rows the bands would not read top to bottom (a node that reads its input whole, such as a quarter turn).
    /// `deliver(rows, stride, count)` gets the bands in order; `check` runs before each band (cancellation).
    /// `repeatedWork`: where the bands would compute more than this fraction of the render again (the rows a tall
    /// neighbourhood reads above and below each band), they are made taller, down to one (not streamed); nil keeps
    /// `bandRows` as asked.
    package static func renderStreaming(_ plan: Plan, sources: [String: any ImageRowSource], format: PixelFormat,
                                        bandRows: Int, repeatedWork: Double? = nil, stats: RenderStats = RenderStats(),
                                        ledger: TransferLedger = TransferLedger(), workLimit: Double? = nil,
                                        check: () throws -> Void = {},
                                        deliver: (UnsafeRawPointer, Int, Int) throws -> Void) throws -> Bool {
        if let name = sources.first(where: { $0.value.format == .rgba16f })?.key {
            throw VulkanError(.failed, "source \"\(name)\" is rgba16f; give rgba32f or an integer format")
        }
        let run = try streamedRun(plan, sources: sources.mapValues { ($0.width, $0.height, $0.format) }, format: format,
                                  bandRows: bandRows, repeatedWork: repeatedWork, stats: stats, workLimit: workLimit)
        guard let read = run.streamedSources(sources) else { return false }
        try run.executeStreaming(read, format: format, ledger: ledger, check: check, deliver: deliver)
        return true
    }

    /// How a streamed render of `plan` would run (for `--explain`): its bands and the most output rows in one, or
    /// nil where it would render whole.
    package static func streamedBands(_ plan: Plan, sources: [String: (width: Int, height: Int, format: PixelFormat)],
                                      format: PixelFormat, bandRows: Int, repeatedWork: Double?) throws -> (bands: Int, rows: Int)? {
        let run = try streamedRun(plan, sources: sources, format: format, bandRows: bandRows, repeatedWork: repeatedWork,
                                  stats: RenderStats(), workLimit: nil)
        guard run.streams(firstRows: sources.mapValues { _ in 0 }) else { return nil }
        return (run.schedule.bands.count, run.schedule.bands.map(\.count).max() ?? 0)
    }

    /// The run of a streamed render: bands of `bandRows`, made taller while they would repeat more than
    /// `repeatedWork` of the render.
    private static func streamedRun(_ plan: Plan, sources: [String: (width: Int, height: Int, format: PixelFormat)],
                                    format: PixelFormat, bandRows: Int, repeatedWork: Double?, stats: RenderStats,
                                    workLimit: Double?) throws -> VulkanRun {
        let context = try VulkanContext.shared()
        let limit = context.limits.maxStorageBufferRange
        let groups = context.limits.maxWorkGroupCount
        let sourceRowBytes = sources.mapValues { $0.format == .rgba32f ? 0 : $0.width * $0.format.bytesPerPixel }
        let output = plan.nodes[plan.output]
        // What a band holds besides its working buffers: two slots of its sources' rows and its result's, a band's
        // rows taken as the output's share of each source with half as much again for the rows neighbourhoods read
        // around it. They take at most half the device memory left; working buffers get the rest.
        let sourceBytesPerRow = sources.values.reduce(0) { $0 + $1.width * $1.height * $1.format.bytesPerPixel }
            / max(1, output.height)
        let slotBytesPerRow = 2 * (output.width * format.bytesPerPixel + sourceBytesPerRow) * 3 / 2
        let available = max(0, context.availableMemory - (1 << 20))
        let fitting = max(1, available / 2 / max(1, slotBytesPerRow))
        var rows = max(1, min(bandRows, fitting))
        while true {
            let memory = max(0, available - min(rows, output.height) * slotBytesPerRow)
            let half = VulkanRun.usesHalves(context, plan: plan, sourceRowBytes: sourceRowBytes,
                                            sourceFormats: sources.mapValues(\.format), format: format, limit: limit,
                                            groups: groups, memory: memory)
            let run = try VulkanRun(context: context, plan: plan, stats: stats, limit: limit, groups: groups,
                                    workLimit: workLimit ?? context.submitWork, sourceRowBytes: sourceRowBytes,
                                    memory: memory, half: half, tiling: VulkanRun.Tiling(on: context, asked: nil),
                                    maxBandRows: rows)
            // Taller bands where these would repeat too much work, while the taller slots still fit; bands no taller
            // than the output are the ones the device's limits cut (a whole render's too).
            guard let most = repeatedWork, run.schedule.bands.count > 1, rows < output.height, rows * 2 <= fitting,
                  run.schedule.repeatedWork(plan) > most else {
                return run
            }
            rows *= 2
        }
    }
}

extension VulkanRun {
    /// A source read a band at a time: its node, and the rows read so far that a later band reads again.
    final class StreamedSource {
        let name: String
        let node: Int
        let rows: any ImageRowSource
        let rowBytes: Int
        /// The rows of the band being prepared, from `held.lowerBound`, `rowBytes` apart.
        let window: UnsafeMutableRawPointer
        var held: Range<Int>

        init(name: String, node: Int, rows: any ImageRowSource, capacity: Int) {
            self.name = name
            self.node = node
            self.rows = rows
            rowBytes = rows.width * rows.format.bytesPerPixel
            window = .allocate(byteCount: max(1, capacity * rowBytes), alignment: 64)
            held = rows.nextRow..<rows.nextRow
        }

        deinit { window.deallocate() }

        /// Brings `band` into the window: rows it shares with the band before are moved up, rows above it passed
        /// over, the rest read.
        func read(_ band: Range<Int>) throws {
            let kept = max(band.lowerBound, held.lowerBound)..<max(band.lowerBound, min(band.upperBound, held.upperBound))
            if !kept.isEmpty, kept.lowerBound > held.lowerBound {
                memmove(window, window + (kept.lowerBound - held.lowerBound) * rowBytes, kept.count * rowBytes)
            }
            if rows.nextRow < band.lowerBound { try rows.skipRows(band.lowerBound - rows.nextRow) }
            let first = max(rows.nextRow, band.lowerBound)
            if first < band.upperBound {
                try rows.readRows(into: window + (first - band.lowerBound) * rowBytes, stride: rowBytes,
                                  count: band.upperBound - first)
            }
            held = band
        }
    }

    /// Whether the render streams: more than one band, each source node read by every band, no source read by two
    /// nodes, and bands whose rows of each source move down from `firstRows` (the next row its decoder gives).
    func streams(firstRows: [String: Int]) -> Bool {
        guard schedule.bands.count > 1 else { return false }
        var seen = Set<String>()
        for (index, node) in plan.nodes.enumerated() {
            guard case .source(let name) = node.primitive else { continue }
            guard let first = firstRows[name], seen.insert(name).inserted else { return false }
            var previous: Range<Int>? = nil
            for band in schedule.needed {
                guard let needed = band[index], needed.lowerBound >= first,
                      previous.map({ needed.lowerBound >= $0.lowerBound && needed.upperBound >= $0.upperBound }) ?? true
                else { return false }
                previous = needed
            }
            // A source all of whose rows every band needs gains nothing from bands.
            if schedule.needed[0][index]!.count >= node.height { return false }
        }
        return !seen.isEmpty
    }

    /// The plan's sources as band-at-a-time readers, or nil where the render does not stream (`streams`).
    func streamedSources(_ sources: [String: any ImageRowSource]) -> [StreamedSource]? {
        guard streams(firstRows: sources.mapValues(\.nextRow)) else { return nil }
        return plan.nodes.enumerated().compactMap { index, node in
            guard case .source(let name) = node.primitive else { return nil }
            return StreamedSource(name: name, node: index, rows: sources[name]!, capacity: schedule.capacity[index])
        }
    }

    /// The buffers one band in flight uses: its sources' uploads (and their staging where the device's memory is not
    /// the host's) and its readback.
    private struct Slot {
        var uploads: [String: DeviceBuffer] = [:]
        var staging: [String: DeviceBuffer] = [:]
        var readback: DeviceBuffer
        var batch: CommandBatch?
        var band = 0
        /// When the band was submitted (its device stage runs from there to the end of the wait).
        var submitted = 0.0
    }

    func executeStreaming(_ sources: [StreamedSource], format: PixelFormat, ledger: TransferLedger,
                          check: () throws -> Void, deliver: (UnsafeRawPointer, Int, Int) throws -> Void) throws {
        let output = plan.nodes[plan.output]
        let rowBytes = output.width * format.bytesPerPixel
        let outputRows = schedule.capacity[plan.output]
        let formats = Dictionary(uniqueKeysWithValues: sources.map { ($0.name, $0.rows.format) })
        // Two slots: the band on the device and the band the host fills or empties.
        var slots: [Slot] = []
        for _ in 0..<2 {
            var slot = Slot(readback: try context.staging.take(context, bytes: Self.wordAligned(outputRows * rowBytes),
                                                                kind: .readback))
            for source in sources {
                let bytes = Self.wordAligned(schedule.capacity[source.node] * source.rowBytes)
                let upload = try DeviceBuffer(context, byteCount: bytes, kind: .device)
                slot.uploads[source.name] = upload
                if upload.mapped == nil {
                    slot.staging[source.name] = try context.staging.take(context, bytes: bytes, kind: .upload)
                }
            }
            slots.append(slot)
        }
        defer {
            // A band still on the device when the render fails is waited for before its buffers go.
            for slot in slots { _ = try? slot.batch?.wait() }
            for slot in slots {
                context.staging.give(slot.readback)
                for buffer in slot.staging.values { context.staging.give(buffer) }
            }
        }
        // On unified memory the pack kernel writes the readback itself; a discrete GPU packs into its own memory
        // and copies across.
        let packsIntoReadback = format != .rgba32f && context.hostMemoryIsDeviceLocal
            && slots[0].readback.byteCount <= context.limits.maxStorageBufferRange
        let bandOutput = format == .rgba32f || packsIntoReadback ? nil
            : try DeviceBuffer(context, byteCount: Self.wordAligned(outputRows * rowBytes), kind: .device)

        // Every band planned first (kernels compile once, parameters go up once), each reading its slot's uploads.
        var bandSteps: [Range<Int>] = []
        for (b, band) in schedule.bands.enumerated() {
            let slot = slots[b % 2], first = steps.count
            for source in sources { uploadFirstRows[source.name] = schedule.needed[b][source.node]!.lowerBound }
            try planBand(schedule.needed[b], uploads: slot.uploads, formats: formats)
            let result = results[plan.output]!
            if packsIntoReadback {
                steps.append(.dispatch(pack(result, into: slot.readback, rows: band, format: format)))
            } else if let bandOutput {
                steps.append(.dispatch(pack(result, into: bandOutput, rows: band, format: format)))
                steps.append(.copy(from: bandOutput, to: slot.readback, sourceOffset: 0, destinationOffset: 0,
                                   bytes: band.count * rowBytes, label: "download"))
            } else {
                steps.append(.copy(from: result, to: slot.readback, sourceOffset: 0, destinationOffset: 0,
                                   bytes: band.count * rowBytes, label: "download"))
            }
            give(result)
            results = [:]
            packedInputs = [:]
            bandSteps.append(first..<steps.count)
        }
        let pipelines = try compilePipelines()
        let timed = stats.timeDeviceSteps
        var parameters: DeviceBuffer?

        /// Waits for the band in `slot` and hands its rows on.
        func finish(_ index: Int) throws {
            guard let batch = slots[index].batch else { return }
            let marks = try batch.wait()
            slots[index].batch = nil
            for (label, seconds) in marks { record(label, seconds) }
            let band = schedule.bands[slots[index].band]
            let readback = slots[index].readback
            // The wait was the device's time (its stage); the transfer is the host's side of the readback.
            let invalidating = monotonicSeconds()
            try readback.invalidateForHost()
            stats.transferSeconds += monotonicSeconds() - invalidating
            stats.stage("device", since: slots[index].submitted)
            // The encoder's time is the caller's to count (it may write on a thread of its own).
            try deliver(readback.mapped!, rowBytes, band.count)
            ledger.recordDownload(bytes: band.count * rowBytes)
        }

        for (b, _) in schedule.bands.enumerated() {
            try check()
            let index = b % 2
            // The band two back used this slot: it was waited for when the band before this one was submitted.
            let reading = monotonicSeconds()
            for source in sources { try source.read(schedule.needed[b][source.node]!) }
            stats.decodeSeconds += monotonicSeconds() - reading
            stats.stage("decode", since: reading)

            var batch = try CommandBatch(context, timestamps: timed ? bandSteps[b].count + 2 : 0)
            if let parameters { batch.retain(parameters) } else { parameters = try uploadParameters(batch) }
            let copying = monotonicSeconds()
            for source in sources {
                let bytes = source.held.count * source.rowBytes
                let upload = slots[index].uploads[source.name]!
                if let mapped = upload.mapped {
                    WorkerPool.copy(to: mapped, from: source.window, byteCount: bytes)
                } else {
                    let staging = slots[index].staging[source.name]!
                    WorkerPool.copy(to: staging.mapped!, from: source.window, byteCount: bytes)
                    batch.copy(from: staging, to: upload, bytes: Self.wordAligned(bytes))
                }
                ledger.recordUpload(bytes: bytes)
            }
            stats.transferSeconds += monotonicSeconds() - copying
            // Orders this band after the one before on the queue (working buffers are shared) and after its uploads.
            batch.barrier()
            batch.mark("upload")
            try record(bandSteps[b], pipelines: pipelines, parameters: parameters, into: &batch, timed: timed)
            batch.hostReadBarrier()
            slots[index].submitted = monotonicSeconds()
            try batch.submit()
            stats.submits += 1
            slots[index].batch = batch
            slots[index].band = b
            // While the device runs this band, the one before goes to the encoder.
            try finish(1 - index)
        }
        try finish((schedule.bands.count - 1) % 2)
        releaseWorking()
    }
}
