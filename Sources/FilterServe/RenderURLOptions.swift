import FilterCore
import FilterRecipe

/// What a render URL may carry beside its preset and source, all of it signed: the output `format`, a size for
/// the preset's first `resize` (`width`, `height`, `fit`) and the encoder's `quality`. The grammar (docs/service.md):
///
///     /r/SIGNATURE/PRESET/SOURCE?format=webp&width=200&height=200&fit=cover&quality=70
///
/// Each name at most once, in any order; the signature covers their values in the order of `names`, so a URL
/// whose options were changed, added or dropped is refused. A width or height sizes the preset's first resize (the
/// other side 0, kept in proportion, unless given; `fit` as resize's), never beyond `ServeConfiguration.maxURLSize`
/// nor beyond the preset's own width or height where it sets one (the preset's author sets each preset's limit);
/// a preset without a resize takes no size.
public struct RenderURLOptions: Equatable, Sendable {
    public var format: String?
    public var width: Int?
    public var height: Int?
    public var fit: String?
    public var quality: Int?

    /// The names a render URL's query may hold, in the order they are signed.
    public static let names = ["format", "width", "height", "fit", "quality"]

    public init(format: String? = nil, width: Int? = nil, height: Int? = nil, fit: String? = nil, quality: Int? = nil) {
        self.format = format
        self.width = width
        self.height = height
        self.fit = fit
        self.quality = quality
    }

    /// The query as signed and as `URLSigner.path` writes it: the given options in the order of `names`.
    public var query: String {
        let pairs: [(String, String?)] = [("format", format), ("width", width.map(String.init)), ("height", height.map(String.init)),
                                          ("fit", fit), ("quality", quality.map(String.init))]
        let given = pairs.compactMap { name, value in value.map { "\(name)=\($0)" } }
        return given.isEmpty ? "" : "?" + given.joined(separator: "&")
    }

    /// Whether the URL sizes the preset.
    var sizes: Bool { width != nil || height != nil || fit != nil }

    /// The options of a request's query: each known name once, numbers whole. Names and values are checked here;
    /// ranges against the server's limits by `check(maxSize:)`.
    static func parse(_ parameters: [(key: String, value: String)]) throws -> RenderURLOptions {
        var options = RenderURLOptions()
        var seen = Set<String>()
        for (key, value) in parameters {
            guard names.contains(key) else {
                throw ServeError(.badRequest, "unknown parameter \"\(key)\"" + NearestName.hint(for: key, in: names)
                                 + ": a render URL carries only " + names.joined(separator: ", "))
            }
            guard seen.insert(key).inserted else { throw ServeError(.badRequest, "parameter \"\(key)\" given twice") }
            func number() throws -> Int {
                guard let n = Int(value), String(n) == value else {
                    throw ServeError(.badRequest, "\(key) must be a whole number, got \"\(value)\"")
                }
                return n
            }
            switch key {
            case "format": options.format = value
            case "width": options.width = try number()
            case "height": options.height = try number()
            case "fit": options.fit = value
            default: options.quality = try number()
            }
        }
        return options
    }

    /// Refuses values out of range: sizes from 1 to `maxSize`, fit one of resize's, quality from 1 to 100.
    func check(maxSize: Int) throws {
        for (name, value) in [("width", width), ("height", height)] {
            if let value, !(1...maxSize).contains(value) {
                throw ServeError(.badRequest, "\(name) must be from 1 to \(maxSize) (the server's --max-url-size), got \(value)")
            }
        }
        if let fit, ResizeFit(rawValue: fit) == nil {
            let fits = ResizeFit.allCases.map(\.rawValue)
            throw ServeError(.badRequest, "fit must be one of \(fits.joined(separator: ", ")), got \"\(fit)\"" + NearestName.hint(for: fit, in: fits))
        }
        if let quality, !(1...100).contains(quality) {
            throw ServeError(.badRequest, "quality must be from 1 to 100, got \(quality)")
        }
    }

    /// `recipe` with its first resize sized as the URL asks; refused for a preset without a resize.
    func applied(to recipe: Recipe, preset: String) throws -> Recipe {
        guard sizes else { return recipe }
        guard let node = recipe.nodes.first(where: { $0.op == .resize }) else {
            throw ServeError(.badRequest, "preset \"\(preset)\" has no resize step: width, height and fit size a preset's first resize")
        }
        // The preset's own size is the largest a URL may ask for: its author decides how large each preset renders.
        for (name, asked) in [("width", width), ("height", height)] {
            let own = Int(node.params.number(name))
            if let asked, own > 0, asked > own {
                throw ServeError(.badRequest, "preset \"\(preset)\" renders at most \(own) px in \(name) (its own resize's), not \(asked)")
            }
        }
        var sized = recipe
        let index = sized.nodes.firstIndex(of: node)!
        var params = node.params
        if width != nil || height != nil {
            params.set("scale", .number(0))
            params.set("width", .number(Double(width ?? 0)))
            params.set("height", .number(Double(height ?? 0)))
        }
        if let fit { params.set("fit", .string(fit)) }
        let problems = node.op.spec.check(params)
        guard problems.isEmpty else {
            throw ServeError(.badRequest, "the URL's size does not suit preset \"\(preset)\": " + problems.joined(separator: "; "))
        }
        sized.nodes[index].params = params
        return sized
    }

    /// `options` with the encoders' quality the URL asks.
    func applied(to options: Renderer.Options) -> Renderer.Options {
        guard let quality else { return options }
        var options = options
        options.setQuality(quality)
        return options
    }
}
