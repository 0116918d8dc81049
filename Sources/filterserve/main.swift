import ArgumentParser
import FilterRecipe
import FilterServe
import Foundation
import Hummingbird
import Logging

/// `filterserve`: recipes as an HTTP service. With no options it serves recipes/ as presets and samples/ as sources
/// on 127.0.0.1:8080 (add --allow-unsigned to try it without keys); SIGTERM drains the renders in flight.
@main
struct FilterServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filterserve",
        abstract: "Serves filter recipes over HTTP: GET /r/SIGNATURE/PRESET/SOURCE renders a preset on a source image.",
        discussion: """
        Every setting also reads from the environment: FILTERSERVE_KEYS (comma-separated secrets, newest first), \
        FILTERSERVE_HOST, FILTERSERVE_PORT. docs/service.md describes the API, signing and limits.
        """,
        version: FilterRecipeVersion.current,
        subcommands: [Serve.self, Sign.self, SignRecipe.self],
        defaultSubcommand: Serve.self)
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the server (the default).")

    @Option(help: "Address to listen on.") var host = ProcessInfo.processInfo.environment["FILTERSERVE_HOST"] ?? "127.0.0.1"
    @Option(help: "Port to listen on.") var port = Int(ProcessInfo.processInfo.environment["FILTERSERVE_PORT"] ?? "") ?? 8080
    @Option(help: "Folder of preset recipes (NAME.json).") var presets = "recipes"
    @Option(help: "Root folder of source images.") var sources = "samples"
    @Option(name: .customLong("files-folder"), help: ArgumentHelp(
        "A folder recipes may name files in (a LUT), beyond the presets folder (repeatable); no other file is read.",
        valueName: "DIR"))
    var fileFolders: [String] = []
    @Option(name: .customLong("key"), help: "A signing secret (repeatable, newest first).") var keys: [String] = []
    @Flag(help: "Accept URLs signed \"_\" (development only).") var allowUnsigned = false
    @Flag(help: "Accept POST /render with any recipe (otherwise recipes must be signed).") var allowRecipes = false
    @Option(help: "Largest upload POST /render reads, in bytes.") var maxUploadBytes = 32 << 20
    @Option(help: "Largest source, in pixels, read from its header before decoding.") var maxPixels = 40_000_000
    @Option(name: .customLong("max-url-size"), help: "Largest width or height a render URL may ask for (?width=, ?height=).")
    var maxURLSize = 4096
    @Option(name: .customLong("result-cache"), help: ArgumentHelp("Keep rendered answers in DIR, read back when asked for again.", valueName: "DIR"))
    var resultCache: String?
    @Option(name: .customLong("result-cache-size"), help: "Most bytes the result cache holds (least recently used go first).")
    var resultCacheBytes = 1 << 30
    @Option(help: "Where renders run: cpu (default), auto (priced per request against the device's profile; the device opened at start when a preset renders there) or vulkan.")
    var backend: Backend = .cpu
    @Option(help: "Renders at once (default: one more than the cores).") var concurrency = ProcessInfo.processInfo.activeProcessorCount + 1
    @Option(help: "Requests that may wait for a render (beyond: 503).") var maxWaiting = 4 * ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Seconds a render may run.") var deadline = 30
    @Option(help: "Cache-Control of rendered images.") var cacheControl = "public, max-age=86400"
    @Option(help: "Formats offered when a URL names none, by the client's Accept, in order of preference (comma-separated; default webp,avif).")
    var negotiate = "webp,avif"
    @Option(name: .customLong("origin"), help: ArgumentHelp(
        "An HTTP(S) origin sources may come from, as @NAME/PATH (repeatable; also FILTERSERVE_ORIGINS, comma-separated).",
        valueName: "NAME=URL"))
    var origins: [String] = []
    @Flag(help: "Let origins resolve to loopback, private or link-local addresses (off: the SSRF guard).")
    var allowPrivateOrigins = false
    @Option(help: "Largest source fetched from an origin, in bytes.") var maxSourceBytes = 64 << 20
    @Option(help: "Seconds an origin may take to answer.") var originTimeout = 10
    @Option(help: "Least severe log messages written: trace, debug, info (one line a request), notice, warning, error.")
    var logLevel = "info"
    @Flag(help: "Serve the recipe playground at / (for recipe authors on their own machine; it signs what it renders).")
    var playground = false
    @Option(help: "Seconds a connection may stay silent before it is closed.") var idleTimeout = 30
    @Option(help: "Seconds an upload may take in all (slow clients get 408).") var uploadTimeout = 60

    func run() async throws {
        var settings = ServeConfiguration()
        settings.host = host
        settings.port = port
        settings.presets = presets
        settings.sources = sources
        settings.fileFolders = fileFolders
        settings.keys = keys + (ProcessInfo.processInfo.environment["FILTERSERVE_KEYS"]?.split(separator: ",").map(String.init) ?? [])
        settings.allowUnsigned = allowUnsigned
        settings.allowRecipes = allowRecipes
        settings.maxUploadBytes = maxUploadBytes
        settings.maxPixels = maxPixels
        settings.maxURLSize = maxURLSize
        settings.resultCache = resultCache
        settings.resultCacheBytes = resultCacheBytes
        settings.concurrency = concurrency
        settings.maxWaiting = maxWaiting
        settings.deadline = .seconds(deadline)
        settings.cacheControl = cacheControl
        settings.negotiated = try negotiate.split(separator: ",").map { word in
            guard let format = ImageFileFormat(word: String(word).trimmingCharacters(in: .whitespaces)), format.isWritten else {
                throw ValidationError("--negotiate takes formats written here (\(ImageFileFormat.formatWords.joined(separator: ", "))), got \(word)")
            }
            return format
        }
        let environmentOrigins = ProcessInfo.processInfo.environment["FILTERSERVE_ORIGINS"]?.split(separator: ",").map(String.init) ?? []
        for entry in origins + environmentOrigins {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw ValidationError("--origin expects NAME=URL, got \(entry)") }
            settings.origins[parts[0]] = parts[1]
        }
        settings.allowPrivateOrigins = allowPrivateOrigins
        settings.maxSourceBytes = maxSourceBytes
        settings.originTimeoutSeconds = originTimeout
        settings.idleTimeoutSeconds = idleTimeout
        settings.playground = playground
        settings.uploadTimeoutSeconds = uploadTimeout
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error or critical, got \(logLevel)")
        }
        settings.logLevel = level
        settings.backend = backend
        let service: RenderService
        do { service = try RenderService(settings) } catch {
            throw ValidationError("\(error)")
        }
        if let note = service.prepareDevice() { FileHandle.standardError.write(Data(("filterserve: " + note + "\n").utf8)) }
        try await service.application().runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }
}

struct Sign: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign", abstract: "Print the signed path of a render URL.")

    @Argument(help: "The preset's name (its file without .json).") var preset: String
    @Argument(help: "The source's path under the sources folder.") var source: String
    @Option(help: "Output format (png, jpeg, webp, tiff, avif, jxl, gif); without it, negotiated from Accept.") var format: String?
    @Option(help: "Width for the preset's first resize (the height follows its aspect unless given).") var width: Int?
    @Option(help: "Height for the preset's first resize.") var height: Int?
    @Option(help: "Fit for the preset's first resize: fill, cover, contain, inside, outside.") var fit: String?
    @Option(help: "Encoder quality, 1-100 (JPEG, WebP, AVIF, JPEG XL).") var quality: Int?
    @Option(help: "The signing secret (default: the first of FILTERSERVE_KEYS).") var key: String?
    @Option(help: "Folder of preset recipes the server reads (the preset is checked there).") var presets = "recipes"

    func run() throws {
        guard let secret = key ?? ProcessInfo.processInfo.environment["FILTERSERVE_KEYS"]?.split(separator: ",").first.map(String.init) else {
            throw ValidationError("give --key or set FILTERSERVE_KEYS")
        }
        let options = RenderURLOptions(format: format, width: width, height: height, fit: fit, quality: quality)
        do { try RenderService.checkSignable(preset: preset, options: options, presets: presets) } catch {
            throw ValidationError("\(error)")
        }
        print(URLSigner(secrets: [secret]).path(preset: preset, source: source, options: options)!)
    }
}

struct SignRecipe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-recipe", abstract: "Print the signature that lets POST /render run a recipe.")

    @Argument(help: "The recipe (JSON).") var recipe: String
    @Option(help: "The signing secret (default: the first of FILTERSERVE_KEYS).") var key: String?

    func run() throws {
        guard let secret = key ?? ProcessInfo.processInfo.environment["FILTERSERVE_KEYS"]?.split(separator: ",").first.map(String.init) else {
            throw ValidationError("give --key or set FILTERSERVE_KEYS")
        }
        let canonical = String(decoding: try Recipe(contentsOfFile: recipe).jsonData(), as: UTF8.self)
        print(URLSigner(secrets: [secret]).signature(for: URLSigner.recipePayload(canonical))!)
    }
}
extension Backend: ExpressibleByArgument {}
