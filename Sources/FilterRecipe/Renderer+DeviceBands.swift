import CPUBackend
import FilterCore
import Foundation
import VulkanBackend

extension Renderer {
    /// The rows of a band when a device render streams (`VulkanRenderer.renderStreaming`), nil where it renders whole.
    /// Bands let decoding, the device and encoding overlap, and hold the sources and the result a band at a time; each
    /// costs a submit and the rows its neighbourhoods read again. From a megapixel of input or output (a photo's
    /// thumbnail streams its photo), about four bands of at least 16 output rows; `FILTERRUN_VULKAN_STREAM_ROWS` sets
    /// the rows (0: always whole).
    /// `repeatedWork`: the most of the render the bands may compute again (10 %; none asked where the rows were).
    static func deviceBands(_ plan: Plan) -> (rows: Int, repeatedWork: Double?)? {
        if let asked = EnvironmentSettings.lenient("FILTERRUN_VULKAN_STREAM_ROWS") { return asked == 0 ? nil : (asked, nil) }
        let output = plan.nodes[plan.output]
        let pixels = plan.nodes.map { node in
            if case .source = node.primitive { return node.width * node.height }
            return 0
        }.reduce(output.width * output.height, max)
        guard pixels >= 1 << 20 else { return nil }
        return (max(16, ((output.height + 3) / 4 + 15) / 16 * 16), 0.1)
    }

    /// Renders `plan` on the device a band at a time from the decoders to the encoder: while the device runs a band,
    /// this thread reads the next band's rows and the encoder writes the band before (on a thread of its own unless
    /// every core has a render). False where the plan does not stream, or where the device refused it before any row
    /// was read: the whole render then decides (and `auto` may fall back to the CPU).
    static func streamOnDevice(_ plan: Plan, decoders: [String: any ImageDecoder], to encoder: any ImageEncoder,
                               format: PixelFormat, bands: (rows: Int, repeatedWork: Double?), stats: RenderStats,
                               ledger: TransferLedger,
                               control: RenderControl?) throws -> Bool {
        let firstRows = decoders.mapValues(\.nextRow)
        let writer = EncoderThread(sink: encoder, inline: RenderLoad.saturated, stages: stats)
        let height = plan.nodes[plan.output].height
        var delivered = 0
        let streamed: Bool
        do {
            streamed = try VulkanRenderer.renderStreaming(
                plan, sources: decoders.mapValues { $0 as any ImageRowSource }, format: format, bandRows: bands.rows,
                repeatedWork: bands.repeatedWork, stats: stats, ledger: ledger, check: { try control?.check() }
            ) { rows, stride, count in
                try writer.write(rows, stride: stride, count: count)
                delivered += count
                control?.report(rowsDone: delivered, of: height)
            }
            try writer.finish()
        } catch is VulkanError where delivered == 0 && decoders.allSatisfy({ $0.value.nextRow == firstRows[$0.key] }) {
            try? writer.finish()
            return false
        } catch {
            try? writer.finish()
            throw error
        }
        stats.encodeSeconds += writer.busySeconds
        return streamed
    }

    /// The `--explain` line on streaming: the bands a device render streams in, or why it renders whole.
    static func explainStreaming(_ plan: Plan, decoders: [String: any ImageDecoder], format: PixelFormat) -> String {
        guard let bands = deviceBands(plan) else {
            return "rendered whole: under a megapixel in and out, or FILTERRUN_VULKAN_STREAM_ROWS=0"
        }
        let sources = decoders.mapValues { ($0.width, $0.height, $0.format) }
        guard let streamed = try? VulkanRenderer.streamedBands(plan, sources: sources, format: format, bandRows: bands.rows,
                                                               repeatedWork: bands.repeatedWork) else {
            return "rendered whole: a node reads its input whole, or bands would compute over a tenth of the render again"
        }
        return "streamed in \(streamed.bands) bands of up to \(streamed.rows) output rows: the decoder reads a band while "
            + "the device renders the one before and the encoder writes behind"
    }

    /// Runs `attempt` (a render into a fresh output); where the device was lost part way through under `auto` — a
    /// streamed render has read rows and written some by then, so it cannot fall back in place — runs it again, which
    /// renders on the CPU (a lost device retires Vulkan for the process), with one warning.
    func againOnTheCPU(_ attempt: () throws -> RenderReport) throws -> RenderReport {
        do {
            return try attempt()
        } catch RenderError.device(let failure) where backend == .auto && VulkanContext.isOpen
                    && (try? VulkanContext.shared()) == nil {
            var report = try attempt()
            report.warnings.insert("warning: Vulkan render failed (\(failure)); rendered again on the CPU", at: 0)
            return report
        }
    }
}
