import CPUBackend
import FilterCore
import Foundation

/// Filters that look at pixels before they can be lowered (a smart crop, trim) ask questions while the recipe is
/// lowered; these are answered here by rendering the asking filter's input on the CPU — small for a crop window,
/// streamed through a scanner for trim — then the recipe is lowered again with the answer.
extension Renderer {
    /// Opens fresh sources for an analysis plan and returns the plan as it will run (optimised, decoders reduced).
    typealias AnalysisSources = (Plan) throws -> (plan: Plan, sources: [String: ImageRowSource])

    /// The recipe lowered with every analysis question answered, one at a time (a later question may read what an
    /// earlier answer cropped); `findings` gains a line per answer for `--explain`.
    func lowered(_ recipe: Recipe, sizes: [String: (width: Int, height: Int)], orientations: [String: Int],
                 open: AnalysisSources, findings: inout [String]) throws -> Plan {
        var answers = [String: AnalysisAnswer]()
        while true {
            let (plan, questions) = try recipe.lowering(inputSizes: sizes, orientations: orientations, answers: answers)
            guard let request = questions.first(where: { answers[$0.node] == nil }) else { return plan }
            let began = monotonicSeconds()
            let (answer, measured) = try self.answer(request, open: open)
            answers[request.node] = answer
            let path = recipe.nodes.firstIndex { $0.id == request.node }.map(recipe.path(ofNode:)) ?? request.node
            findings.append(String(format: "analysis: %@ %@ (measured on a %@ render of its input, %.3f s)", path,
                                Self.describe(answer, request.question), measured, monotonicSeconds() - began))
        }
    }

    static func describe(_ answer: AnalysisAnswer, _ question: AnalysisQuestion) -> String {
        switch (answer, question) {
        case let (.offset(x, y), .cropWindow(strategy, w, h, sw, sh)):
            return "\(strategy.rawValue) keeps the \(w)×\(h) window at (\(x), \(y)) of the \(sw)×\(sh) scaled image"
        case let (.rect(x, y, w, h), .trim):
            return "trim keeps the \(w)×\(h) box at (\(x), \(y))"
        case let (.range(low, high), .histogramRange):
            return "levels stretch red, green, blue from " + zip(low, high).map { String(format: "%.0f–%.0f", $0 * 255, $1 * 255) }
                .joined(separator: ", ") + " (8-bit codes)"
        default:
            return "\(answer)"
        }
    }

    func answer(_ request: AnalysisRequest, open: AnalysisSources) throws -> (AnalysisAnswer, String) {
        var plan = request.input
        let input = plan.nodes[plan.output]
        do {
            switch request.question {
            case let .cropWindow(strategy, cw, ch, sw, sh):
                // Both look at the scaled image, rendered at most 1024 pixels on its long side and never larger than
                // the input; attention reduces it further to 32×32 on its sRGB codes (as libvips resizes it).
                let a = min(1, 1024 / Double(max(sw, sh)), Double(input.width) / Double(sw), Double(input.height) / Double(sh))
                let aw = max(1, Int((Double(sw) * a).rounded())), ah = max(1, Int((Double(sh) * a).rounded()))
                plan.appendResample(width: aw, height: ah, kernel: .bilinear, origin: request.node)
                let (runnable, sources) = try open(plan)
                let image = try CPURenderer.render(runnable, sources: sources, format: .rgba8)
                let bytes = Array(UnsafeRawBufferPointer(start: try image.hostBytes(), count: image.rowStride * ah))
                let packed = image.rowStride == aw * 4 ? bytes
                    : (0..<ah).flatMap { bytes[$0 * image.rowStride..<$0 * image.rowStride + aw * 4] }
                if strategy == .attention {
                    let grid = SmartCrop.attentionGrid
                    let (x, y) = SmartCrop.attention(grid: SmartCrop.reduced(packed, width: aw, height: ah, to: grid, grid),
                                                     gridWidth: grid, gridHeight: grid, width: sw, height: sh,
                                                     cropWidth: cw, cropHeight: ch)
                    return (.offset(x: x, y: y), "\(aw)×\(ah)")
                }
                let acw = max(1, Int((Double(cw) * Double(aw) / Double(sw)).rounded()))
                let ach = max(1, Int((Double(ch) * Double(ah) / Double(sh)).rounded()))
                let (ax, ay) = SmartCrop.entropyWindow(rgba: packed, width: aw, height: ah, cropWidth: acw, cropHeight: ach)
                let x = Int((Double(ax) * Double(sw) / Double(aw)).rounded())
                let y = Int((Double(ay) * Double(sh) / Double(ah)).rounded())
                return (.offset(x: min(max(x, 0), sw - cw), y: min(max(y, 0), sh - ch)), "\(aw)×\(ah)")
            case let .histogramRange(clipLow, clipHigh):
                // Percentiles hardly move when the image is reduced: measured at most 1024 pixels on the long side.
                let a = min(1, 1024 / Double(max(input.width, input.height)))
                let aw = max(1, Int((Double(input.width) * a).rounded())), ah = max(1, Int((Double(input.height) * a).rounded()))
                plan.appendResample(width: aw, height: ah, kernel: .bilinear, origin: request.node)
                let (runnable, sources) = try open(plan)
                let sink = StatisticsSink(width: aw, height: ah, channels: 4)
                try CPURenderer.render(runnable, sources: sources, to: sink, format: .rgba8)
                let (low, high) = Self.percentiles(sink.histograms, clipLow: clipLow, clipHigh: clipHigh)
                return (.range(low: low, high: high), "\(aw)×\(ah)")
            case let .trim(threshold, background):
                plan.append(.median(radius: 1), width: input.width, height: input.height, origin: request.node)
                let (runnable, sources) = try open(plan)
                let scanner = TrimScanner(width: input.width, threshold: threshold, background: background)
                try CPURenderer.render(runnable, sources: sources, to: scanner, format: .rgba8)
                let box = scanner.box
                return (.rect(x: box.x, y: box.y, width: box.width, height: box.height), "\(input.width)×\(input.height)")
            }
        } catch let error as CodecError {
            throw RenderError.reading(error.path, error)
        }
    }

    /// For R, G and B: the lowest code below which at most clipLow % of the pixels lie and the highest above which at
    /// most clipHigh % do, in 0...1.
    static func percentiles(_ histograms: [[Int]], clipLow: Double, clipHigh: Double) -> (low: [Double], high: [Double]) {
        var low = [Double](), high = [Double]()
        for histogram in histograms.prefix(3) {
            let total = Double(histogram.reduce(0, +))
            var below = 0.0, l = 0
            while l < 255, below + Double(histogram[l]) <= total * clipLow / 100 { below += Double(histogram[l]); l += 1 }
            var above = 0.0, h = 255
            while h > 0, above + Double(histogram[h]) <= total * clipHigh / 100 { above += Double(histogram[h]); h -= 1 }
            low.append(Double(l) / 255)
            high.append(Double(h) / 255)
        }
        return (low, high)
    }

    /// Sources for analysis renders of files: each render opens its own decoders (a decoder streams once), reduced
    /// while decoding where the optimised plan shrinks them.
    func analysisSources(_ inputs: [String: ImageInput], recipe: Recipe) -> AnalysisSources {
        { plan in
            var decoders = [String: any ImageDecoder]()
            var ignored = [String]()
            for node in plan.nodes {
                guard case .source(let name) = node.primitive, decoders[name] == nil, let input = inputs[name] else { continue }
                do {
                    let decoder = try input.openDecoder(limits: decodeLimits)
                    decoders[name] = options.colourManagement
                        ? try InputProfiles.managed(decoder, space: recipe.workingSpace, notes: &ignored) : decoder
                } catch { throw RenderError.reading(input.name, error) }
            }
            // Always optimised, so an answer does not depend on the render's own optimizer setting.
            let optimized = Optimizer.optimize(plan, decodeReductions: decoders.mapValues(\.decodeReductions)).plan
            try Self.reduceDecoders(optimized, decoders)
            return (optimized, decoders)
        }
    }

    /// Sources for analysis renders of buffers in memory.
    func analysisSources(_ images: [String: PixelBuffer]) -> AnalysisSources {
        { plan in (Optimizer.optimize(plan).plan, images.mapValues { BufferRowSource($0) }) }
    }
}
