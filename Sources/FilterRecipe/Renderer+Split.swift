import CPUBackend
import FilterCore
import VulkanBackend

extension Renderer {
    /// Renders a plan cut in two (`PlanSplit`, chosen by `auto` where it is priced cheapest): the first part on the
    /// CPU from `firstSources` (a decoder streams its rows, as in any CPU render) into working values, then the rest
    /// on the device from that result and `restSources`, the sources only the rest reads. The working values go up
    /// as they are (float32), so the rest computes from what the CPU computed, not from a rounded copy. Where the
    /// device fails under `auto`, the CPU renders the rest too, and `warnings` says so.
    static func renderSplit(_ split: PlanSplit, firstSources: [String: ImageRowSource], restSources: [String: PixelBuffer],
                            format: PixelFormat, stats: RenderStats, ledger: TransferLedger, control: RenderControl?,
                            fallBack: Bool, warnings: inout [String]) throws -> PixelBuffer {
        let cut = split.first.nodes[split.first.output]
        let first = PixelBuffer(width: cut.width, height: cut.height, format: .rgba32f, ledger: ledger)
        let cpu = monotonicSeconds()
        try CPURenderer.render(split.first, sources: firstSources, to: BufferRowSink(first), format: .rgba32f, stats: stats,
                               control: control)
        stats.stage("render", since: cpu)
        try control?.check()
        let sources = restSources.merging([PlanSplit.sourceName: first]) { $1 }
        let device = monotonicSeconds()
        do {
            let result = try VulkanRenderer.render(split.rest, sources: sources, format: format, stats: stats, ledger: ledger)
            stats.stage("device", since: device)
            return result
        } catch let error as VulkanError where fallBack {
            warnings.append("warning: Vulkan render failed (\(error)); rendering the rest on the CPU")
            return try CPURenderer.render(split.rest, sources: sources.mapValues { BufferRowSource($0) }, format: format,
                                          stats: stats, control: control)
        }
    }
}
