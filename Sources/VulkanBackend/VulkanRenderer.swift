import CVulkan
import FilterCore
import Foundation

/// Runs a plan on the Vulkan device: one upload of each (packed 8/16-bit) input, every node as one or two kernel
/// dispatches recorded into a single command buffer, one download of the packed output. Intermediates stay on the
/// device; a buffer is reused by later nodes once its last consumer has been recorded.
public enum VulkanRenderer {
    /// Renders `plan`; `sources` are host buffers of stored samples (or working rgba32f). The result is a host
    /// buffer of `format`, downloaded once, with every transfer counted in `ledger`.
    public static func render(_ plan: Plan, sources: [String: PixelBuffer], format: PixelFormat,
                              stats: RenderStats = RenderStats(), ledger: TransferLedger = TransferLedger()) throws -> PixelBuffer {
        let context = try VulkanContext.shared()
        try checkLimits(plan, sources: sources, format: format, limits: context.limits)
        let run = try VulkanRun(context: context, plan: plan, stats: stats)
        return try run.execute(sources: sources, format: format, ledger: ledger)
    }

    /// Refuses plans whose buffers exceed what the device can bind, before anything is allocated.
    static func checkLimits(_ plan: Plan, sources: [String: PixelBuffer], format: PixelFormat,
                            limits: DeviceLimits) throws {
        let mib = Double(1 << 20)
        for node in plan.nodes {
            let bytes = node.width * node.height * 16
            if bytes > limits.maxStorageBufferRange {
                throw VulkanError(.tooLarge, String(
                    format: "node \"%@\" (%@) needs a %d×%d working buffer of %.1f MiB; the device binds at most %.1f MiB (maxStorageBufferRange)",
                    node.origin, node.op, node.width, node.height, Double(bytes) / mib, Double(limits.maxStorageBufferRange) / mib))
            }
            let groups = (node.width + 15) / 16, rows = (node.height + 15) / 16
            if groups > limits.maxWorkGroupCount.x || rows > limits.maxWorkGroupCount.y {
                throw VulkanError(.tooLarge, "node \"\(node.origin)\" (\(node.op)) is \(node.width)×\(node.height): more work groups than the device allows")
            }
        }
    }
}

/// One render's planning and recording.
final class VulkanRun {
    let context: VulkanContext
    let plan: Plan
    let stats: RenderStats
    let batch: CommandBatch

    /// A kernel invocation, planned before anything is recorded (so the parameter block can be built first).
    struct Invocation {
        var name: String
        var source: String
        var output: DeviceBuffer
        var inputs: [DeviceBuffer]
        var push: PushConstants
        var params: [Float]
        var groups: (x: Int, y: Int)
        var label: String
        var paramsOffset = 0
    }

    var invocations: [Invocation] = []
    var results: [Int: DeviceBuffer] = [:]
    private var free: [Int: [DeviceBuffer]] = [:]
    /// Buffers made by `take` (uploaded inputs are not reused as working buffers).
    private var owned = Set<ObjectIdentifier>()
    private var liveBytes = 0
    private(set) var peakBytes = 0

    init(context: VulkanContext, plan: Plan, stats: RenderStats) throws {
        self.context = context
        self.plan = plan
        self.stats = stats
        batch = try CommandBatch(context, timestamps: plan.nodes.count * 2 + 8)
    }

    // MARK: - Working buffers

    private func take(_ bytes: Int) throws -> DeviceBuffer {
        if let reused = free[bytes]?.popLast() { return reused }
        liveBytes += bytes
        peakBytes = max(peakBytes, liveBytes)
        let buffer = try DeviceBuffer(context, byteCount: bytes, kind: .device)
        owned.insert(ObjectIdentifier(buffer))
        return buffer
    }

    /// Returns a working buffer for reuse by later nodes (the barriers between dispatches order the reuse).
    func give(_ buffer: DeviceBuffer) {
        guard owned.contains(ObjectIdentifier(buffer)) else { return }
        free[buffer.byteCount, default: []].append(buffer)
    }

    func working(_ node: Plan.Node) throws -> DeviceBuffer { try take(node.width * node.height * 16) }

    // MARK: - Execution

    func execute(sources: [String: PixelBuffer], format: PixelFormat, ledger: TransferLedger) throws -> PixelBuffer {
        // Uploads: each input once, packed as stored.
        var uploaded: [String: (PixelBuffer, DeviceBuffer)] = [:]
        for (name, source) in sources where plan.nodes.contains(where: { $0.primitive == .source(name: name) }) {
            let host = try Self.packed(source, ledger: ledger)
            let device = try DeviceBuffer(context, byteCount: Self.wordAligned(host.byteCount), kind: .device)
            host.attach(device: VulkanStorage(device, batch: batch))
            uploaded[name] = (host, device)
        }
        try planNodes(uploaded: uploaded.mapValues { ($0.0.format, $0.1) })
        let output = plan.nodes[plan.output]
        let outputBuffer = results[plan.output]!
        let packedOutput: DeviceBuffer
        if format == .rgba32f {
            packedOutput = outputBuffer
        } else {
            let bytes = output.width * output.height * format.bytesPerPixel
            packedOutput = try DeviceBuffer(context, byteCount: Self.wordAligned(bytes), kind: .device)
            invocations.append(pack(outputBuffer, into: packedOutput, node: output, format: format))
        }

        // Compile (or fetch) every kernel before recording.
        let compileStart = monotonicSeconds(), counters = ShaderCompiler.counters
        let pipelines = try invocations.map { try context.pipeline(source: $0.source, name: $0.name) }
        stats.compileSeconds += monotonicSeconds() - compileStart
        stats.kernelsCompiled += ShaderCompiler.counters.compiled - counters.compiled
        stats.kernelsFromDiskCache += ShaderCompiler.counters.diskHits - counters.diskHits

        let paramsBuffer = try uploadParameters()
        let transferStart = monotonicSeconds()
        for (host, _) in uploaded.values { try host.prepareDevice() }
        stats.transferSeconds += monotonicSeconds() - transferStart
        batch.barrier()
        batch.mark("upload")
        for (invocation, pipeline) in zip(invocations, pipelines) {
            var bindings: [CommandBatch.Binding?] = [CommandBatch.Binding(buffer: invocation.output)]
            bindings += invocation.inputs.map { CommandBatch.Binding(buffer: $0) }
            while bindings.count < 4 { bindings.append(nil) }
            if let paramsBuffer, !invocation.params.isEmpty {
                bindings.append(CommandBatch.Binding(buffer: paramsBuffer, offset: invocation.paramsOffset * 4,
                                                     range: invocation.params.count * 4))
            } else {
                bindings.append(nil)
            }
            bindings.append(CommandBatch.Binding(buffer: context.tables))
            try batch.dispatch(pipeline, bindings: bindings, filler: context.tables, push: invocation.push,
                               groups: invocation.groups)
            batch.barrier()
            batch.mark(invocation.label)
        }
        let result = PixelBuffer(width: output.width, height: output.height, format: format, ledger: ledger)
        let readback = try DeviceBuffer(context, byteCount: packedOutput.byteCount, kind: .readback)
        batch.copy(from: packedOutput, to: readback, bytes: packedOutput.byteCount)
        batch.mark("download")
        let storage = VulkanStorage(packedOutput, batch: batch)
        storage.readback = readback
        result.attach(device: storage)
        result.deviceWasWritten()

        for (label, seconds) in try batch.submitAndWait() { record(label, seconds) }
        let downloadStart = monotonicSeconds()
        _ = try result.hostBytes()
        try result.detachDevice()
        for (host, _) in uploaded.values { try host.detachDevice() }
        stats.transferSeconds += monotonicSeconds() - downloadStart
        return result
    }

    private func record(_ label: String, _ seconds: Double) {
        if label == "upload" || label == "download" { stats.transferSeconds += seconds; return }
        let parts = label.split(separator: "\u{1F}", maxSplits: 1).map(String.init)
        stats.addTime(id: parts[0], op: parts.count > 1 ? parts[1] : parts[0], backend: "vulkan", seconds: seconds)
    }

    /// The parameter block of every invocation in one device buffer, each at an aligned offset.
    private func uploadParameters() throws -> DeviceBuffer? {
        let alignment = max(1, context.limits.minStorageBufferOffsetAlignment / 4)
        var block = [Float]()
        for i in invocations.indices where !invocations[i].params.isEmpty {
            while block.count % alignment != 0 { block.append(0) }
            invocations[i].paramsOffset = block.count
            block += invocations[i].params
        }
        guard !block.isEmpty else { return nil }
        let bytes = block.count * 4
        let buffer = try DeviceBuffer(context, byteCount: bytes, kind: .device)
        let staging = try DeviceBuffer(context, byteCount: bytes, kind: .upload)
        block.withUnsafeBytes { staging.mapped!.copyMemory(from: $0.baseAddress!, byteCount: bytes) }
        batch.copy(from: staging, to: buffer, bytes: bytes)
        batch.retain(staging)
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
