import FilterRecipe
import Foundation
import Logging

/// Everything `filterserve` can be told, by flags or the environment; the defaults serve `recipes/` as presets and
/// `samples/` as sources on the loopback interface.
public struct ServeConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Folder of preset recipes: `/r/SIG/NAME/…` renders NAME.json.
    public var presets = "recipes"
    /// Root folder of the source images; a URL never reaches outside it.
    public var sources = "samples"
    /// Folders beyond the presets folder whose files recipes may name (a LUT's path); a recipe's file parameters are
    /// relative paths inside the presets folder or these, never absolute, never leading out (`Recipe.fileFolders`).
    public var fileFolders: [String] = []
    /// HTTP(S) origins by name: a source `@NAME/PATH` is PATH under the named base URL. None by default.
    public var origins: [String: String] = [:]
    /// Let origins resolve to loopback, private, link-local and other reserved addresses (off: SSRF guard).
    public var allowPrivateOrigins = false
    /// Largest source fetched from an origin, in bytes (the body is cut off while it streams).
    public var maxSourceBytes = 64 << 20
    /// Seconds an origin may take to answer.
    public var originTimeoutSeconds = 10
    /// Signing secrets, newest first: a URL signed with any of them is accepted (rotation), new URLs use the first.
    public var keys: [String] = []
    /// Accept URLs whose signature is `_` (for development; off unless asked for).
    public var allowUnsigned = false
    /// Accept `POST /render` with any recipe (otherwise each recipe must carry a signature).
    public var allowRecipes = false
    /// Serve the recipe playground at `/` (for recipe authors on their own machine: it renders any recipe and signs
    /// it with the first key).
    public var playground = false
    /// Seconds a connection may stay silent (no request, or a request that stopped sending) before it is closed.
    public var idleTimeoutSeconds = 30
    /// Seconds an upload may take in all: a client trickling its body (slow loris) is answered 408 then.
    public var uploadTimeoutSeconds = 60
    /// Largest upload `POST /render` reads.
    public var maxUploadBytes = 32 << 20
    /// Sources larger than this many pixels are refused from their header, before decoding.
    public var maxPixels = 40_000_000
    /// Where renders run: the CPU (the default), or `auto` — each request priced on the CPU and on the device from
    /// the device's profile, the opening shared by the server's life, and the device opened at start when a preset
    /// renders there at 12 MP — or `vulkan` for every request.
    public var backend: Backend = .cpu
    /// The largest width or height a render URL may ask for (`?width=`, `?height=`).
    public var maxURLSize = 4096
    /// A folder that keeps rendered answers on disk (`ResultCache`); nil (the default) keeps none.
    public var resultCache: String?
    /// The most bytes the result cache holds (1 GiB by default); least recently used answers go first.
    public var resultCacheBytes = 1 << 30
    /// Renders at once and requests allowed to wait for one (beyond: 503 with Retry-After). The default is one render
    /// more than the cores: a finished render holds its slot until its task, on Swift's cooperative threads, gets a
    /// core from the renders to hand the slot on, so with a slot a core a core stands idle at each hand-off (one
    /// more: 14 % more thumbnails a second at 8 connections on two cores, BENCHMARKS.md).
    public var concurrency = ProcessInfo.processInfo.activeProcessorCount + 1
    public var maxWaiting = 4 * ProcessInfo.processInfo.activeProcessorCount
    /// A render still running after this is cancelled (503).
    public var deadline: Duration = .seconds(30)
    /// Formats offered by content negotiation, in the server's order of preference (ties in Accept's quality).
    public var negotiated: [ImageFileFormat] = ImageFileFormat.negotiatedByDefault
    /// Least severe log messages written (`info`: one line a request).
    public var logLevel: Logger.Level = .info
    /// Sent with every rendered image (and its 304s).
    public var cacheControl = "public, max-age=86400"

    public init() {}
}
