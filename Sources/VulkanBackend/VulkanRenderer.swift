import CVulkan
import FilterCore
import Foundation

/// Runs a plan on the Vulkan device: one upload of each (packed 8/16-bit) input, every node as one or two kernel
/// dispatches recorded into a single command buffer, one download of the packed output. Intermediates stay on the
/// device; a buffer is reused by later nodes once its last consumer has been recorded. Images whose buffers exceed
/// the device's binding limit run in bands of rows, each node computing the rows the band needs (with the overlap
/// its neighbourhood reads), so the result is identical to an unbanded run.
package enum VulkanRenderer {
    /// Renders `plan`; `sources` are host buffers of stored samples (or working rgba32f). The result is a host
    /// buffer of `format`, downloaded once, with every transfer counted in `ledger`. `bandLimit` lowers the
    /// device's buffer limit, `groupLimit` its work-group counts and `workLimit` the pixel-taps of one submit (tests
    /// use them to force banding and several submits on small images); `sharing: false` gives every node a working
    /// buffer of its own (`BufferPlan`), the plain way, which tests compare with.
    package static func render(_ plan: Plan, sources: [String: PixelBuffer], format: PixelFormat,
                              stats: RenderStats = RenderStats(), ledger: TransferLedger = TransferLedger(),
                              bandLimit: Int? = nil, groupLimit: (x: Int, y: Int)? = nil,
                              workLimit: Double? = nil, halfWorking: Bool? = nil, tiled: Bool? = nil,
                              sharing: Bool = true) throws -> PixelBuffer {
        // Stored samples are integer codes to the kernels (unpack.comp, images.glsl's packed reads); half floats are
        // a device format the renderer refuses before this point.
        if let name = sources.first(where: { $0.value.format == .rgba16f })?.key {
            throw VulkanError(.failed, "source \"\(name)\" is rgba16f; give rgba32f or an integer format")
        }
        let context = try VulkanContext.shared()
        let limit = min(context.limits.maxStorageBufferRange, bandLimit ?? .max)
        let device = context.limits.maxWorkGroupCount
        let groups = (min(device.0, groupLimit?.x ?? .max), min(device.1, groupLimit?.y ?? .max))
        let sourceRowBytes = sources.mapValues { $0.format == .rgba32f ? 0 : $0.width * $0.format.bytesPerPixel }
        let memory = VulkanRun.memoryForWorkingBuffers(context, output: plan.nodes[plan.output], format: format,
                                                       sourceBytes: sources.values.reduce(0) { $0 + $1.byteCount })
        let half = try halfWorking ?? VulkanRun.usesHalves(context, plan: plan, sourceRowBytes: sourceRowBytes,
                                                           sourceFormats: sources.mapValues(\.format), format: format,
                                                           limit: limit, groups: groups, memory: memory)
        let run = try VulkanRun(context: context, plan: plan, stats: stats, limit: limit, groups: groups,
                                workLimit: workLimit ?? context.submitWork, sourceRowBytes: sourceRowBytes, memory: memory,
                                half: half, tiling: VulkanRun.Tiling(on: context, asked: tiled), sharing: sharing)
        return try run.execute(sources: sources, format: format, ledger: ledger)
    }
}

/// One render's planning and recording.
final class VulkanRun {
    let context: VulkanContext
    let plan: Plan
    let stats: RenderStats
    let schedule: BandSchedule
    /// Pixel-taps recorded into one command buffer before it is submitted.
    let workLimit: Double
    /// Working buffers hold packed half floats (8 bytes a pixel) instead of float32 (16).
    let half: Bool
    /// Which kernels stage their pixels and taps in shared memory (`Tiling`).
    let tiling: Tiling

    /// A kernel invocation, planned before anything is recorded (so the parameter block can be built first).
    struct Invocation {
        var kernel: Kernel
        var source: String
        var bindings: [CommandBatch.Binding?]
        var push: PushConstants
        var params: [Float]
        var groups: (x: Int, y: Int)
        var label: String
        var paramsOffset = 0
        /// Pixel-taps the dispatch costs (its invocations × the node's taps), for cutting submits.
        var work = 0.0
        /// The node's per-pixel steps are fused into the kernel's store.
        var fusedSteps = false
        /// The work-group shape, for kernels whose shape is specialised per dispatch; nil keeps the source's own.
        var shape: (x: Int, y: Int)? = nil
    }

    enum Step {
        case dispatch(Invocation)
        /// A device copy of `bytes` bytes (band results into the readback buffer).
        case copy(from: DeviceBuffer, to: DeviceBuffer, sourceOffset: Int, destinationOffset: Int, bytes: Int, label: String)

        var label: String {
            switch self {
            case .dispatch(let invocation): return invocation.label
            case .copy(_, _, _, _, _, let label): return label
            }
        }

        /// The buffers the step reads and writes.
        var access: (reads: [ObjectIdentifier], writes: [ObjectIdentifier]) {
            switch self {
            case .dispatch(let invocation):
                let buffers = invocation.bindings.map { $0.map { ObjectIdentifier($0.buffer) } }
                return (buffers.dropFirst().compactMap { $0 }, buffers.first.flatMap { $0 }.map { [$0] } ?? [])
            case .copy(let from, let to, _, _, _, _):
                return ([ObjectIdentifier(from)], [ObjectIdentifier(to)])
            }
        }
    }

    var steps: [Step] = []

    /// The buffers steps recorded since the last barrier read and wrote. Slot 0 of a dispatch is its output; the
    /// parameter block and tables are written once, before the first barrier.
    struct Hazards {
        private var read = Set<ObjectIdentifier>(), written = Set<ObjectIdentifier>()

        /// A step needs a barrier first when it reads or writes a buffer written since the last one, or writes one
        /// read since (a working buffer handed to a later node).
        func conflicts(_ access: (reads: [ObjectIdentifier], writes: [ObjectIdentifier])) -> Bool {
            access.reads.contains { written.contains($0) }
                || access.writes.contains { written.contains($0) || read.contains($0) }
        }

        mutating func add(_ access: (reads: [ObjectIdentifier], writes: [ObjectIdentifier])) {
            read.formUnion(access.reads)
            written.formUnion(access.writes)
        }
    }
    /// The buffer holding each node's rows in the band being planned.
    var results: [Int: DeviceBuffer] = [:]
    /// The band's binding of each source its readers convert from its samples (`BandSchedule.packed`).
    var packedInputs: [Int: CommandBatch.Binding] = [:]
    /// The source row each upload starts at: 0 where sources go up whole, the band's first row where they go up a
    /// band at a time (`executeStreaming`).
    var uploadFirstRows: [String: Int] = [:]
    private var free: [DeviceBuffer] = []
    private var owned = Set<ObjectIdentifier>()

    /// `sourceRowBytes`: each source's packed row (0 for working floats); `memory`: the device bytes working
    /// buffers may take (`memoryForWorkingBuffers`).
    init(context: VulkanContext, plan: Plan, stats: RenderStats, limit: Int, groups: (x: Int, y: Int),
         workLimit: Double, sourceRowBytes: [String: Int], memory: Int, half: Bool, tiling: Tiling,
         sharing: Bool = true, maxBandRows: Int? = nil) throws {
        self.half = half
        self.tiling = tiling
        self.context = context
        self.plan = plan
        self.stats = stats
        self.workLimit = workLimit
        schedule = try BandSchedule(plan: plan, limit: limit, sourceRowBytes: sourceRowBytes,
                                    alignment: context.limits.minStorageBufferOffsetAlignment, groups: groups,
                                    workLimit: workLimit, memoryLimit: memory, pixelBytes: half ? 8 : 16,
                                    sharing: sharing, maxBandRows: maxBandRows)
    }

    /// The device memory left for working buffers once the inputs, the output's band buffer and a margin for
    /// parameters and tables are counted, and the readback buffer where host memory is device memory (unified
    /// memory; a discrete GPU's staging and readback live in a host heap, charged there).
    static func memoryForWorkingBuffers(_ context: VulkanContext, output: Plan.Node, format: PixelFormat,
                                        sourceBytes: Int) -> Int {
        let outputBytes = output.width * output.height * format.bytesPerPixel
        let fixed = sourceBytes + (context.hostMemoryIsDeviceLocal ? 2 : 1) * outputBytes + (1 << 20)
        return max(0, context.availableMemory - fixed)
    }

    /// Half-float working buffers serve renders whose inputs and output are all 8-bit: half's 11-bit mantissa
    /// keeps values within 0.12 of an 8-bit code (float32 registers do the arithmetic), while 16-bit images and
    /// float buffers (copied into working buffers as they are) keep float32. So do plans with a node that
    /// amplifies small differences of what it reads (its descriptor's `amplifiesDifferences`) — unsharp masking (amount up to 10, a threshold step),
    /// luminance sharpening, arbitrary convolution kernels, Sobel's gradients and local tone's detail gain — where
    /// half's rounding reached 2–18 codes in the cross-backend tests (Sobel 2 codes on an H100); and plans with a
    /// step function (threshold, posterize), which turns half's rounding of its input into whole steps (24 samples
    /// of a random chain flipped). `FILTERRUN_VULKAN_FLOAT32=1` turns halves off.
    static func halfWorking(sources: [PixelFormat], output: PixelFormat, plan: Plan) -> Bool {
        guard !float32Only else { return false }
        let amplifies = plan.nodes.contains { node in
            node.primitive.descriptor.amplifiesDifferences || node.post.contains(where: \.isStep)
        }
        return !amplifies && !output.isFloat && output.bytesPerSample == 1
            && sources.allSatisfy { !$0.isFloat && $0.bytesPerSample == 1 }
    }

    static let float32Only = ProcessInfo.processInfo.environment["FILTERRUN_VULKAN_FLOAT32"] == "1"

    /// Whether a render of `plan` takes half-float working buffers: where `halfWorking` allows them and they pay —
    /// on unified memory (integrated GPUs, lavapipe), where device memory is the host's and halves halve what a
    /// render holds, or where float32 buffers would not fit the device in one band. A discrete GPU with room keeps
    /// float32: on an H100 half storage put invert (white mapped to black, where sRGB's slope is 12.92) and Sobel
    /// 1.07–2 codes from the CPU, while float32 matched every filter and recipe within tolerance, and its per-pixel
    /// kernels ran at twice the float32 floor either way, far below the transfers.
    static func usesHalves(_ context: VulkanContext, plan: Plan, sourceRowBytes: [String: Int],
                           sourceFormats: [String: PixelFormat], format: PixelFormat, limit: Int,
                           groups: (x: Int, y: Int), memory: Int) -> Bool {
        guard halfWorking(sources: Array(sourceFormats.values), output: format, plan: plan) else { return false }
        if context.hostMemoryIsDeviceLocal { return true }
        guard let float32 = try? BandSchedule(plan: plan, limit: limit, sourceRowBytes: sourceRowBytes,
                                              alignment: context.limits.minStorageBufferOffsetAlignment, groups: groups,
                                              memoryLimit: memory, pixelBytes: 16)
        else { return true }
        return float32.bands.count > 1
    }

    /// Which kernels stage their pixels and taps in shared memory, where a work group's invocations share on-chip
    /// memory. Software devices tile nothing: their shared memory is ordinary memory plus barriers (lavapipe, 4K
    /// photo: σ 10 blur 22.7 s with both passes tiled, 11.0 s plain; 9×9 convolution 11.7 s tiled, 11.3 s plain).
    /// GPUs tile the 2-D convolution, and separable passes from 33 taps: on an H100 (20 MP, float32 buffers, full
    /// clocks) a 19-tap Gaussian (σ 3) took 0.9–1.0 ms plain and 1.0–1.1 ms tiled, a 13-tap unsharp 1.1 against
    /// 1.3, a 61-tap one (σ 10) 2.1–2.4 against 1.9–2.0, the 9×9 convolution 2.9 against 1.5. Asked for
    /// (`FILTERRUN_VULKAN_TILED=0` or `1`, or the render's `tiled`), tiling is all or nothing, to compare.
    struct Tiling {
        /// The 2-D convolution is tiled.
        let convolution: Bool
        /// Separable passes of at least this many taps are tiled.
        let separableFrom: Int

        static let asked: Bool? = ["0": false, "1": true][ProcessInfo.processInfo.environment["FILTERRUN_VULKAN_TILED"] ?? ""]

        init(on context: VulkanContext, asked: Bool?) {
            switch asked ?? Self.asked {
            case true?: (convolution, separableFrom) = (true, 0)
            case false?: (convolution, separableFrom) = (false, .max)
            case nil: (convolution, separableFrom) = context.isSoftware ? (false, .max) : (true, 33)
            }
        }

        func separable(taps: Int) -> Bool { taps >= separableFrom }
    }

    /// `source` compiled for half-float working buffers (a different source, so a different cached kernel).
    static func halved(_ source: String) -> String { defining("HALF_WORKING", in: source) }

    /// `source` with `#define name` after its `#version` line.
    static func defining(_ name: String, in source: String) -> String {
        guard let newline = source.firstIndex(of: "\n") else { return source }
        return source[...newline] + "#define \(name)\n" + source[source.index(after: newline)...]
    }

    /// `rows` of source `name` as rows of its upload.
    func uploadRows(_ name: String, _ rows: Range<Int>) -> Range<Int> {
        let first = uploadFirstRows[name] ?? 0
        return (rows.lowerBound - first)..<(rows.upperBound - first)
    }

    // MARK: - Working buffers

    /// A device buffer of at least `bytes`: the smallest free one large enough from an earlier node or band, or a
    /// new one (`BandSchedule.workingBytes` counts the same way).
    func take(_ bytes: Int) throws -> DeviceBuffer {
        if let reused = free.indices.filter({ free[$0].byteCount >= bytes }).min(by: { free[$0].byteCount < free[$1].byteCount }) {
            return free.remove(at: reused)
        }
        let buffer = try DeviceBuffer(context, byteCount: bytes, kind: .device)
        owned.insert(ObjectIdentifier(buffer))
        stats.allocated(bytes)
        return buffer
    }

    /// Whether `buffer` is one of the run's working buffers (not an upload).
    func owns(_ buffer: DeviceBuffer) -> Bool { owned.contains(ObjectIdentifier(buffer)) }

    /// Returns a working buffer for reuse (the barriers between dispatches order the reuse).
    func give(_ buffer: DeviceBuffer) {
        guard owns(buffer) else { return }
        free.append(buffer)
    }

    /// Counts the working buffers out of the render's statistics at its end.
    func releaseWorking() {
        for buffer in free { stats.released(buffer.byteCount) }
    }

    /// A buffer for node `index`'s rows in any band.
    func working(_ index: Int) throws -> DeviceBuffer {
        try take(max(1, schedule.capacity[index]) * plan.nodes[index].width * schedule.pixelBytes)
    }

    // MARK: - Execution

    func execute(sources: [String: PixelBuffer], format: PixelFormat, ledger: TransferLedger) throws -> PixelBuffer {
        // Inputs any band reads go up whole, packed as stored.
        var hosts: [String: PixelBuffer] = [:], uploads: [String: DeviceBuffer] = [:]
        for (index, node) in plan.nodes.enumerated() {
            guard case .source(let name) = node.primitive, schedule.needed.contains(where: { $0[index] != nil }),
                  let source = sources[name] else { continue }
            let host = try Self.packed(source, ledger: ledger)
            hosts[name] = host
            uploads[name] = try DeviceBuffer(context, byteCount: Self.wordAligned(host.byteCount), kind: .device)
        }
        let output = plan.nodes[plan.output]
        let outputBytes = output.width * output.height * format.bytesPerPixel
        let readback = try context.staging.take(context, bytes: Self.wordAligned(outputBytes), kind: .readback)
        let rowBytes = output.width * format.bytesPerPixel
        // Where the readback buffer is device memory too (unified memory: integrated GPUs, lavapipe), a render of one
        // band packs straight into it: no second buffer of the output's size, no copy. A discrete GPU packs into its
        // own memory and copies across once (its shader writes to host memory would cross the bus a word at a time).
        let packsIntoReadback = format != .rgba32f && schedule.bands.count == 1 && context.hostMemoryIsDeviceLocal
            && readback.byteCount <= context.limits.maxStorageBufferRange
        let bandOutput = format == .rgba32f || packsIntoReadback ? nil
            : try DeviceBuffer(context, byteCount: Self.wordAligned(schedule.capacity[plan.output] * rowBytes), kind: .device)

        for (b, band) in schedule.bands.enumerated() {
            try planBand(schedule.needed[b], uploads: uploads, formats: sources.mapValues(\.format))
            let result = results[plan.output]!
            if packsIntoReadback {
                steps.append(.dispatch(pack(result, into: readback, rows: band, format: format)))
            } else if let bandOutput {
                steps.append(.dispatch(pack(result, into: bandOutput, rows: band, format: format)))
                steps.append(.copy(from: bandOutput, to: readback, sourceOffset: 0, destinationOffset: band.lowerBound * rowBytes,
                                   bytes: band.count * rowBytes, label: "download"))
            } else {
                steps.append(.copy(from: result, to: readback, sourceOffset: 0, destinationOffset: band.lowerBound * rowBytes,
                                   bytes: band.count * rowBytes, label: "download"))
            }
            give(result)  // every other node's buffer went back after its last consumer
            results = [:]
            packedInputs = [:]
        }

        let pipelines = try compilePipelines()
        let timed = stats.timeDeviceSteps
        var batch = try CommandBatch(context, timestamps: timed ? steps.count + 2 : 0)
        let transferStart = monotonicSeconds()
        for (name, host) in hosts {
            host.attach(device: VulkanStorage(uploads[name]!, batch: batch))
            try host.prepareDevice()
        }
        stats.transferSeconds += monotonicSeconds() - transferStart
        let paramsBuffer = try uploadParameters(batch)
        batch.barrier()
        batch.mark("upload")
        try record(steps.indices, pipelines: pipelines, parameters: paramsBuffer, into: &batch, timed: timed)
        batch.hostReadBarrier()
        let result = PixelBuffer(width: output.width, height: output.height, format: format, ledger: ledger)
        let storage = VulkanStorage(readback, batch: batch)
        storage.readback = readback
        result.attach(device: storage)
        result.deviceWasWritten()

        for (label, seconds) in try batch.submitAndWait() { record(label, seconds) }
        stats.submits += 1
        let downloadStart = monotonicSeconds()
        try result.detachDevice()
        context.staging.give(readback)
        for host in hosts.values { try host.detachDevice() }
        stats.transferSeconds += monotonicSeconds() - downloadStart
        releaseWorking()
        return result
    }

    /// Every step's kernel compiled (or fetched from the caches) before recording; nil for copies.
    func compilePipelines() throws -> [VkPipeline?] {
        let compileStart = monotonicSeconds(), counters = ShaderCompiler.counters
        var pipelines: [VkPipeline?] = []
        for step in steps {
            if case .dispatch(let invocation) = step {
                pipelines.append(try context.pipeline(source: half ? Self.halved(invocation.source) : invocation.source,
                                                      name: invocation.kernel.rawValue + (invocation.fusedSteps ? "+post" : ""),
                                                      shape: invocation.shape))
            } else {
                pipelines.append(nil)
            }
        }
        context.pipelineCache.saveIfChanged()
        stats.compileSeconds += monotonicSeconds() - compileStart
        stats.kernelsCompiled += ShaderCompiler.counters.compiled - counters.compiled
        stats.kernelsFromDiskCache += ShaderCompiler.counters.diskHits - counters.diskHits
        return pipelines
    }

    /// Records `steps[range]` into `batch`. Past `workLimit` pixel-taps what is recorded is submitted and waited
    /// for, and `batch` is a new command buffer for the rest.
    func record(_ range: Range<Int>, pipelines: [VkPipeline?], parameters: DeviceBuffer?, into batch: inout CommandBatch,
                timed: Bool) throws {
        var work = 0.0
        // Barriers only where a step touches what an earlier one since the last barrier wrote, or writes what it
        // touched; timed renders keep one after every step so each timestamp closes its own step.
        var hazards = Hazards()
        for index in range {
            let step = steps[index]
            if work >= workLimit {
                // Bounded submits: what is recorded runs now, and the next command buffer opens with a barrier,
                // which orders it after everything submitted before on this queue.
                for (label, seconds) in try batch.submitAndWait() { record(label, seconds) }
                stats.submits += 1
                batch = try CommandBatch(context, timestamps: timed ? range.upperBound - index + 2 : 0)
                if let parameters { batch.retain(parameters) }
                batch.barrier()
                hazards = Hazards()
                work = 0
            }
            let access = step.access
            if hazards.conflicts(access) {
                batch.barrier()
                stats.barriers += 1
                hazards = Hazards()
            }
            hazards.add(access)
            switch step {
            case .dispatch(let invocation):
                work += invocation.work
                var bindings = invocation.bindings
                while bindings.count < KernelLayout.Slot.params.index { bindings.append(nil) }
                if let parameters, !invocation.params.isEmpty {
                    bindings.append(CommandBatch.Binding(buffer: parameters, offset: invocation.paramsOffset * 4,
                                                         range: invocation.params.count * 4))
                } else {
                    bindings.append(nil)
                }
                bindings.append(CommandBatch.Binding(buffer: context.tables))
                try batch.dispatch(pipelines[index]!, bindings: bindings, filler: context.tables, push: invocation.push,
                                   groups: invocation.groups)
            case let .copy(from, to, sourceOffset, destinationOffset, bytes, _):
                batch.copy(from: from, to: to, sourceOffset: sourceOffset, destinationOffset: destinationOffset, bytes: bytes)
            }
            if timed {
                batch.barrier()
                stats.barriers += 1
                hazards = Hazards()
                batch.mark(step.label)
            }
        }
    }

    func record(_ label: String, _ seconds: Double) {
        if label == "upload" || label == "download" { stats.transferSeconds += seconds; return }
        let parts = label.split(separator: "\u{1F}", maxSplits: 1).map(String.init)
        stats.addTime(id: parts[0], op: parts.count > 1 ? parts[1] : parts[0], backend: .vulkan, seconds: seconds)
    }

    /// The parameter block of every invocation in one device buffer, each at an aligned offset (identical blocks,
    /// such as one node's in several bands, stored once).
    func uploadParameters(_ batch: CommandBatch) throws -> DeviceBuffer? {
        let alignment = max(1, context.limits.minStorageBufferOffsetAlignment / 4)
        var block = [Float](), offsets = [[Float]: Int]()
        for i in steps.indices {
            guard case .dispatch(var invocation) = steps[i], !invocation.params.isEmpty else { continue }
            if let offset = offsets[invocation.params] {
                invocation.paramsOffset = offset
            } else {
                while block.count % alignment != 0 { block.append(0) }
                invocation.paramsOffset = block.count
                offsets[invocation.params] = block.count
                block += invocation.params
            }
            steps[i] = .dispatch(invocation)
        }
        guard !block.isEmpty else { return nil }
        let bytes = block.count * 4
        let buffer = try DeviceBuffer(context, byteCount: bytes, kind: .device)
        let staging = try batch.staging(bytes: bytes, kind: .upload)
        block.withUnsafeBytes { staging.mapped!.copyMemory(from: $0.baseAddress!, byteCount: bytes) }
        batch.copy(from: staging, to: buffer, bytes: bytes)
        batch.retain(buffer)
        return buffer
    }

    static func wordAligned(_ bytes: Int) -> Int { (bytes + 3) & ~3 }

    /// The source with rows packed (kernels address samples by index), copied only when its rows are padded.
    static func packed(_ source: PixelBuffer, ledger: TransferLedger) throws -> PixelBuffer {
        let rowBytes = source.width * source.format.bytesPerPixel
        if source.rowStride == rowBytes { return source }
        let copy = PixelBuffer(width: source.width, height: source.height, format: source.format, ledger: ledger)
        let from = try source.hostBytes(), to = try copy.mutableHostBytes()
        for y in 0..<source.height { (to + y * rowBytes).copyMemory(from: from + y * source.rowStride, byteCount: rowBytes) }
        return copy
    }
}
