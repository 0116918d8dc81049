import CPUBackend
import FilterCore
import Foundation
import PNGCodec
import VulkanBackend

/// Renders recipes. Safe to use from several threads at once: each render owns its buffers and statistics.
public struct Renderer: Sendable {
    public struct Options: Sendable {
        /// Output depth (8 or 16); nil follows the main input.
        public var depth: Int?
        public var png: PNGWriteOptions
        /// Images declaring more pixels are refused before decoding.
        public var maxPixels: Int
        public init(depth: Int? = nil, png: PNGWriteOptions = .default, maxPixels: Int = PNGDecoder.defaultMaxPixels) {
            self.depth = depth
            self.png = png
            self.maxPixels = maxPixels
        }
    }

    public let backend: Backend
    public var options: Options

    public init(backend: Backend = .auto, options: Options = Options()) {
        self.backend = backend
        self.options = options
    }

    /// The backend that will run, and any warning about the choice.
    public func resolveBackend() throws -> (name: String, warning: String?) {
        switch backend {
        case .cpu: return ("cpu", nil)
        case .vulkan: throw RenderError.render(VulkanStatus.unavailableReason)
        case .auto: return ("cpu", "warning: \(VulkanStatus.unavailableReason); rendering on the CPU")
        }
    }

    /// Decodes the inputs' headers, validates the recipe against their sizes, renders and writes `output`
    /// atomically.
    public func render(_ recipe: Recipe, inputs: [String: String], output: String) throws -> RenderReport {
        let began = monotonicSeconds()
        let (backendName, warning) = try resolveBackend()
        let (decoders, plan) = try prepare(recipe, inputs: inputs)
        let format = outputFormat(plan: plan, recipe: recipe, inputFormats: decoders.mapValues(\.header.format))
        let node = plan.nodes[plan.output]
        let stats = RenderStats()
        do {
            let encoder = try PNGEncoder(path: output, width: node.width, height: node.height, format: format,
                                         options: options.png)
            if case .source(let name) = node.primitive, decoders[name]!.header.format == format {
                try Self.copyRows(from: decoders[name]!, to: encoder, stats: stats)
            } else {
                try CPURenderer.render(plan, sources: decoders, to: encoder, format: format, stats: stats)
            }
            let finishing = monotonicSeconds()
            try encoder.finish()
            stats.encodeSeconds += monotonicSeconds() - finishing
        } catch let error as PNGError where error.kind == .corrupt {
            throw RenderError.input("\(error)")
        } catch {
            throw RenderError.render("\(error)")
        }
        return RenderReport(
            backend: backendName, width: node.width, height: node.height, format: format,
            decodeSeconds: stats.decodeSeconds, filterSeconds: stats.filterSeconds,
            encodeSeconds: stats.encodeSeconds, totalSeconds: monotonicSeconds() - began,
            peakResidentBytes: peakResidentBytes(), peakIntermediateBytes: stats.peakIntermediateBytes,
            transfers: TransferLedger.Counts(), nodes: stats.nodes.filter { $0.op != "source" },
            warnings: warning.map { [$0] } ?? [])
    }

    /// Opens the inputs (headers only) and lowers the recipe against their sizes.
    func prepare(_ recipe: Recipe, inputs: [String: String]) throws -> ([String: PNGDecoder], Plan) {
        var decoders = [String: PNGDecoder]()
        for name in recipe.usedInputs {
            guard let path = inputs[name] else {
                throw RenderError.recipe(RecipeError(path: "inputs", "no image given for input \"\(name)\" (use --input \(name)=PATH)"))
            }
            do { decoders[name] = try PNGDecoder(path: path, maxPixels: options.maxPixels) }
            catch { throw RenderError.input("\(error)") }
        }
        do { return (decoders, try recipe.plan(inputSizes: decoders.mapValues { ($0.header.width, $0.header.height) })) }
        catch let error as RecipeError { throw RenderError.recipe(error) }
    }

    /// The plan a render would run, in words, with the devices the Vulkan loader reports.
    public func explain(_ recipe: Recipe, inputs: [String: String]) throws -> String {
        let (backendName, _) = (try? resolveBackend()) ?? ("cpu", nil)
        let (_, plan) = try prepare(recipe, inputs: inputs)
        var text = plan.explanation(backend: backendName)
        let devices = VulkanStatus.deviceNames().map { $0.isEmpty ? "none" : $0.joined(separator: ", ") } ?? "no Vulkan loader"
        text += "\nVulkan devices: \(devices) (\(VulkanStatus.unavailableReason))"
        return text
    }

    /// A plan without filters whose output keeps the input's layout: stored rows go straight from decoder to
    /// encoder, with no trip through working values.
    static func copyRows(from decoder: PNGDecoder, to encoder: PNGEncoder, stats: RenderStats) throws {
        let rowBytes = decoder.width * decoder.format.bytesPerPixel
        let strip = max(1, (1 << 20) / rowBytes)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: strip * rowBytes, alignment: 64)
        defer { buffer.deallocate() }
        while decoder.nextRow < decoder.height {
            let count = min(strip, decoder.height - decoder.nextRow)
            var began = monotonicSeconds()
            try decoder.readRows(into: buffer, stride: rowBytes, count: count)
            stats.decodeSeconds += monotonicSeconds() - began
            began = monotonicSeconds()
            try encoder.writeRows(buffer, stride: rowBytes, count: count)
            stats.encodeSeconds += monotonicSeconds() - began
        }
    }

    /// Renders to memory.
    public func render(_ recipe: Recipe, images: [String: PixelBuffer], format: PixelFormat? = nil) throws -> PixelBuffer {
        _ = try resolveBackend()
        let plan: Plan
        do { plan = try recipe.plan(inputSizes: images.mapValues { ($0.width, $0.height) }) }
        catch let error as RecipeError { throw RenderError.recipe(error) }
        let chosen = format ?? outputFormat(plan: plan, recipe: recipe, inputFormats: images.mapValues(\.format))
        return try CPURenderer.render(plan, sources: images.mapValues { BufferRowSource($0) }, format: chosen)
    }

    /// The layout of the first recipe input the output depends on (the main image), alpha added when the graph can
    /// make transparency, at the requested depth.
    func outputFormat(plan: Plan, recipe: Recipe, inputFormats: [String: PixelFormat]) -> PixelFormat {
        let main = recipe.inputs.lazy.compactMap { inputFormats[$0] }.first ?? .rgba8
        let alpha = plan.outputMayHaveAlpha(sourceHasAlpha: inputFormats.mapValues(\.hasAlpha))
        return Self.format(following: main, alpha: alpha, depth: options.depth)
    }

    /// The input's layout, with alpha added when the recipe makes transparency, at the requested depth.
    static func format(following input: PixelFormat, alpha: Bool, depth: Int?) -> PixelFormat {
        var channels = input.isFloat ? 4 : input.channels
        if alpha && !input.hasAlpha { channels += 1 }
        return PixelFormat.integer(channels: channels, depth: depth ?? (input.depth == 16 ? 16 : 8))!
    }
}
