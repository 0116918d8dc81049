import FilterCore
import Foundation
import PNGCodec

/// A long-lived context for editing apps (Core Image's context, GEGL's cache): inputs are decoded once, at a
/// preview size (shrinking while decoding where the format allows); every node's result is cached, keyed by the
/// sub-graph that made it, within a memory budget (least recently used goes first); a render after a parameter
/// change re-runs only the nodes the change reaches.
///
///     let session = try PreviewSession(inputs: ["main": "photo.jpg"], previewWidth: 1920)
///     var look = Image(input: "main").gaussianBlur(sigma: 2).vignette(intensity: 0.4)
///     let first = try session.render(look)        // decodes nothing more: the preview is in memory
///     look = Image(input: "main").gaussianBlur(sigma: 2).vignette(intensity: 0.6)
///     let second = try session.render(look)       // re-runs the vignette only
public final class PreviewSession: @unchecked Sendable {  // every mutable field is guarded by `lock`
    /// Counters since the session opened.
    public struct Statistics: Sendable {
        public var nodesRun = 0
        public var nodesFromCache = 0
        public var cachedBytes = 0
        public var peakCachedBytes = 0
    }

    public let renderer: Renderer
    /// Bytes of cached intermediates kept at most (the inputs' previews are not counted).
    public let cacheBudget: Int
    private let previews: [String: PixelBuffer]
    private let lock = NSLock()
    private var cache: [String: (buffer: PixelBuffer, lastUse: Int)] = [:]
    private var clock = 0
    private var counters = Statistics()

    /// Decodes every input (`inputs`: recipe input name → file) at `previewWidth` pixels wide (no wider than
    /// stored), upright and in the working space.
    public init(inputs: [String: String], previewWidth: Int? = 1920, renderer: Renderer = Renderer(backend: .cpu),
                cacheBudget: Int = 512 << 20, workingSpace: WorkingSpace = .linear) throws {
        self.renderer = renderer
        self.cacheBudget = max(0, cacheBudget)
        var previews = [String: PixelBuffer]()
        for (name, path) in inputs {
            var shrink = Image(input: "main")
            if let previewWidth { shrink = try shrink.resize(width: max(1, previewWidth)) }
            shrink.workingSpace = workingSpace
            var recipe = shrink.recipe
            if previewWidth != nil { recipe = try Self.noEnlargement(recipe, path: path, renderer: renderer) }
            previews[name] = try renderer.renderToBuffer(recipe, inputs: ["main": .file(path)], format: .rgba32f)
        }
        self.previews = previews
    }

    /// A shrink that never enlarges: the resize is dropped when the image is already narrow enough.
    private static func noEnlargement(_ recipe: Recipe, path: String, renderer: Renderer) throws -> Recipe {
        let decoder = try ImageInput.file(path).openDecoder(limits: renderer.decodeLimits)
        let upright = decoder.metadata.orientation >= 5 ? decoder.storedHeight : decoder.storedWidth
        guard let width = recipe.nodes.first?.params.values["width"], case .number(let w) = width, Int(w) < upright else {
            return Recipe(workingSpace: recipe.workingSpace, nodes: [], output: "main", isChain: true)
        }
        return recipe
    }

    /// The preview of input `name` (working values, rgba32f).
    public func preview(_ name: String) -> PixelBuffer? { previews[name] }

    public var statistics: Statistics { lock.withLock { counters } }

    /// Renders `image`'s recipe on the previews, reusing every cached node it shares with earlier renders; the
    /// result is in `format` (default: the first input's layout as 8-bit RGBA).
    public func render(_ image: Image, format: PixelFormat = .rgba8) throws -> PixelBuffer {
        try render(image.recipe, format: format)
    }

    /// The render as PNG bytes (8-bit, tagged sRGB), for a browser or another remote viewer.
    public func renderPNG(_ recipe: Recipe) throws -> Data {
        let buffer = try render(recipe, format: .rgba8)
        do {
            let file = try OutputFile(inMemoryNamed: "preview")
            defer { file.abandon() }
            let encoder = try PNGEncoder(output: file, width: buffer.width, height: buffer.height, format: buffer.format,
                                         tagSRGB: true)
            try encoder.writeRows(of: buffer, rows: 0..<buffer.height)
            try encoder.finish()
            return try file.contents()
        } catch let error as OutputError {
            throw RenderError.output(error)
        }
    }

    public func render(_ recipe: Recipe, format: PixelFormat = .rgba8) throws -> PixelBuffer {
        let recipe = try Renderer.validated(recipe)
        var keys = [String: String]()  // node id or input name → cache key
        var buffers = [String: PixelBuffer]()
        for name in recipe.inputs {
            guard let preview = previews[name] else {
                throw RenderError.recipe(RecipeError(path: "inputs", "the session has no image for input \"\(name)\""))
            }
            keys[name] = "input:\(name)"
            buffers[name] = preview
        }
        for node in recipe.nodes where recipe.reaches(recipe.output, from: node.id) {
            let key = Self.key(node, space: recipe.workingSpace, inputs: node.inputs.map { keys[$0] ?? "?" })
            keys[node.id] = key
            // The output node renders straight to `format` (one pass less than working values then converting) and
            // is cached in that form; no node reads it. Public API cannot write into a returned buffer.
            let isOutput = node.id == recipe.output
            let outputKey = key + "→" + format.rawValue
            if isOutput, let hit = lookUp(outputKey) { return hit }
            if !isOutput, let hit = lookUp(key) {
                buffers[node.id] = hit
                continue
            }
            // The node alone, on its inputs' results (working values in, working values out).
            let names = node.inputs.uniqued()
            let single = Recipe(workingSpace: recipe.workingSpace, inputs: names.isEmpty ? ["·size"] : names,
                                nodes: [Recipe.Node(id: "·result", op: node.op, inputs: node.inputs, params: node.params.values)],
                                output: "·result")
            let images = Dictionary(uniqueKeysWithValues: node.inputs.uniqued().map { ($0, buffers[$0]!) })
            if isOutput {
                let result = try renderer.render(single, images: images, format: format)
                store(outputKey, result)
                return result
            }
            let result = try renderer.render(single, images: images, format: .rgba32f)
            store(key, result)
            buffers[node.id] = result
        }
        guard let result = buffers[recipe.output] else {
            throw RenderError.recipe(RecipeError(path: "output", "no node named \"\(recipe.output)\""))
        }
        do { return try result.converted(to: format, space: recipe.workingSpace) }
        catch { throw RenderError.recipe(RecipeError(path: "format", "\(error)")) }
    }

    /// Drops every cached intermediate (the previews stay).
    public func removeCachedResults() {
        lock.withLock {
            cache.removeAll()
            counters.cachedBytes = 0
        }
    }

    /// What made a node's result: its filter, parameters, working space and its inputs' keys.
    static func key(_ node: Recipe.Node, space: WorkingSpace, inputs: [String]) -> String {
        let params = node.params.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        return "\(node.op.rawValue)[\(space.rawValue)](\(params))<-(\(inputs.joined(separator: ";")))"
    }

    private func lookUp(_ key: String) -> PixelBuffer? {
        lock.withLock {
            guard let entry = cache[key] else { return nil }
            clock += 1
            cache[key]!.lastUse = clock
            counters.nodesFromCache += 1
            return entry.buffer
        }
    }

    private func store(_ key: String, _ buffer: PixelBuffer) {
        lock.withLock {
            counters.nodesRun += 1
            guard buffer.byteCount <= cacheBudget else { return }
            clock += 1
            cache[key] = (buffer, clock)
            counters.cachedBytes += buffer.byteCount
            while counters.cachedBytes > cacheBudget, let oldest = cache.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                cache.removeValue(forKey: oldest.key)
                counters.cachedBytes -= oldest.value.buffer.byteCount
            }
            counters.peakCachedBytes = max(counters.peakCachedBytes, counters.cachedBytes)
        }
    }
}

extension Array where Element: Hashable {
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
