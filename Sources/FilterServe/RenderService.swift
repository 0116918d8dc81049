import FilterCore
import FilterRecipe
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The HTTP face of the engine: `GET|HEAD /r/{signature}/{preset}/{source…}` renders a preset recipe on a source
/// image; `/healthz`, `/readyz` and `/metrics` serve operations. Limits are checked before work (signature, names,
/// the source's pixels from its header, the render queue), and errors are JSON.
public struct RenderService: Sendable {
    public let configuration: ServeConfiguration
    public let signer: URLSigner
    let presets: SourceRoot
    let sources: SourceRoot
    let queue: RenderQueue
    let fetcher: OriginFetcher
    /// Identical renders in flight, shared.
    let flights = RenderFlights()
    /// Presets parsed once, again when their file changes.
    let presetCache = PresetCache()
    /// Rendered answers on disk, when `--result-cache` names a folder.
    let results: ResultCache?
    /// How request bodies are read (uploads to `POST /render` and the playground): bounded in size, time and number.
    let bodies: BodyReader
    let playground: Playground?
    let metrics = ServeMetrics()

    public init(_ configuration: ServeConfiguration) throws {
        guard !configuration.keys.isEmpty || configuration.allowUnsigned else {
            throw ServeError(.internalServerError, "no signing key: give --key (or FILTERSERVE_KEYS), or --allow-unsigned for development")
        }
        self.configuration = configuration
        // A server renders one image after another: each render reuses the pages the last one freed.
        ProcessMemory.keepForReuse()
        signer = URLSigner(secrets: configuration.keys)
        presets = try SourceRoot(configuration.presets, option: "--presets")
        sources = try SourceRoot(configuration.sources, option: "--sources")
        queue = RenderQueue(slots: configuration.concurrency, maxWaiting: configuration.maxWaiting)
        results = try configuration.resultCache.map { try ResultCache(folder: $0, capacity: configuration.resultCacheBytes) }
        fetcher = try OriginFetcher(configuration)
        bodies = BodyReader(maxBytes: configuration.maxUploadBytes, seconds: configuration.uploadTimeoutSeconds,
                            gate: UploadGate(limit: configuration.concurrency + configuration.maxWaiting))
        playground = configuration.playground
            ? try Playground(sources: sources, presets: presets, signer: signer, bodies: bodies,
                             fileFolders: configuration.fileFolders,
                             renderer: Self.renderer(maxPixels: configuration.maxPixels)) : nil
    }

    public func router() -> Router<ServeContext> {
        let router = Router(context: ServeContext.self)
        router.add(middleware: CountingMiddleware(metrics: metrics))
        router.add(middleware: EndpointMiddleware())
        // The operations endpoints, each answering HEAD as GET without the body.
        let operations: [(String, @Sendable (Request, ServeContext) async throws -> Response)] = [
            ("healthz", { _, _ in Self.text("ok\n") }),
            ("readyz", { _, _ in
                let saturated = await queue.isSaturated
                return Self.text(saturated ? "saturated\n" : "ready\n", status: saturated ? .serviceUnavailable : .ok)
            }),
            ("metrics", { _, _ in
                metrics.queueDepth.set(Double(await queue.depth))
                return Self.text(metrics.text, type: "text/plain; version=0.0.4")
            }),
        ]
        for (path, answer) in operations {
            router.get(RouterPath(path), use: answer)
            router.head(RouterPath(path)) { request, context in
                let response = try await answer(request, context)
                return Response(status: response.status, headers: response.headers, body: .init())
            }
        }
        router.get("r/:signature/:preset/**") { request, context in try await render(request, context, head: false) }
        router.head("r/:signature/:preset/**") { request, context in try await render(request, context, head: true) }
        router.post("render") { request, context in try await renderPosted(request, context) }
        if let playground {
            playground.add(to: router) { work in try await queued(work) }
        }
        return router
    }

    static func text(_ text: String, status: HTTPResponse.Status = .ok, type: String = "text/plain") -> Response {
        Response(status: status, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The service's logger, at the configured level.
    var logger: Logger {
        var logger = Logger(label: "filterserve")
        logger.logLevel = configuration.logLevel
        return logger
    }

    /// An application serving `router()` at the configured address.
    public func application() -> some ApplicationProtocol {
        Application(router: router(),
                    server: .http1(configuration: .init(additionalChannelHandlers: [HangUpWatcher()],
                                                        idleTimeout: .seconds(Int64(configuration.idleTimeoutSeconds)))),
                    configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                         serverName: "filterserve"),
                    logger: logger)
    }

    func render(_ request: Request, _ context: ServeContext, head: Bool) async throws -> Response {
        let signature = try context.parameters.require("signature")
        let preset = try context.parameters.require("preset")
        // The source as the URL spells it: a doubled or trailing slash is another URL, which its signature does not sign.
        guard let sourceParts = Self.spelledSource(request.uri.path, signature: signature, preset: preset) else {
            throw ServeError(.forbidden, "the signature does not match this URL (preset, source and options are all signed)")
        }
        let source = sourceParts.joined(separator: "/")
        // The options (format, size, fit, quality): each known name once, whatever their order.
        let options = try RenderURLOptions.parse(request.uri.queryParameters.map { (String($0.key), String($0.value)) })
        let format = options.format
        // The signature first: nothing about the files is revealed to an unsigned request.
        let payload = URLSigner.payload(preset: preset, source: source, options: options)
        let unsigned = signature == "_" && configuration.allowUnsigned
        guard unsigned || signer.verify(signature, payload: payload) else {
            throw ServeError(.forbidden, "the signature does not match this URL (preset, source and options are all signed)")
        }
        try options.check(maxSize: configuration.maxURLSize)
        guard let recipePath = presets.presetFile(preset) else {
            throw ServeError(.notFound, "no preset named \"\(preset)\"" + NearestName.hint(for: preset, in: presets.presetNames))
        }
        // A source is a file under the sources folder, or `@ORIGIN/PATH` fetched from a configured origin.
        let input: ImageInput, validator: String
        var fetchSeconds: Double?
        if let first = sourceParts.first, first.hasPrefix("@") {
            let fetchBegan = ContinuousClock.now
            let fetched = try await whileConnected(context) {
                try await fetcher.fetch(origin: String(first.dropFirst()), path: Array(sourceParts.dropFirst()))
            }
            fetchSeconds = (ContinuousClock.now - fetchBegan) / .seconds(1)
            input = .encoded(fetched.data, name: source)
            validator = fetched.validator
        } else {
            guard let sourcePath = sources.file(sourceParts) else { throw ServeError(.notFound, "no source \"\(source)\"") }
            input = .file(sourcePath)
            validator = try fileValidator(sourcePath)
        }
        // Without WebP, the source's own format: PNG stays PNG, anything else becomes JPEG.
        let own: ImageFileFormat = ImageFileFormat.from(extensionOf: source) == .png ? .png : .jpeg
        let (fileFormat, negotiated) = try outputFormat(format, accept: request.headers[.accept], fallback: own)

        let presetValidator = try fileValidator(recipePath)
        let tag = try etag(payload: payload, format: fileFormat, validators: [validator, presetValidator])
        var headers: HTTPFields = [.eTag: tag, .cacheControl: configuration.cacheControl]
        if negotiated { headers[.vary] = "Accept" }
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag || $0.trimmingCharacters(in: .whitespaces) == "*" }) {
            metrics.notModified.increment()
            return Response(status: .notModified, headers: headers)
        }

        // The preset as parsed once (again when its file changes), sized and its quality set as the URL asks: a
        // URL that cannot size it is refused before it takes a place in the queue.
        let recipe: Recipe
        do {
            recipe = try options.applied(to: presetCache.recipe(at: recipePath, validator: presetValidator) {
                confined(try Recipe(contentsOfFile: recipePath))
            }, preset: preset)
        } catch { throw served(error) }
        // An answer already on disk is read back: no queue, no render.
        if let results, let data = results.data(for: tag) {
            metrics.cacheHits.increment()
            metrics.bytesOut.increment(by: Int64(data.count))
            headers[.contentType] = fileFormat.mediaType
            headers[HTTPField.Name("Server-Timing")!] = ServerTiming.header(fetch: fetchSeconds, "cache;desc=\"result cache\"")
            headers[.contentLength] = String(data.count)
            return Response(status: .ok, headers: headers, body: head ? .init() : .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        var sized = self.renderer
        sized.options = options.applied(to: sized.options)
        let renderer = sized, service = self
        // Requests for the same bytes share one render (the key is the ETag: what was signed and every file read).
        let waiter = UUID()
        let (flight, shared) = await flights.join(tag, waiter: waiter) {
            let began = ContinuousClock.now
            let (data, report, slot) = try await service.queuedRender { control in
                try renderer.render(recipe, sources: ["main": input], as: fileFormat, control: control)
            }
            service.results?.store(data, for: tag)
            let queue = (slot - began) / .seconds(1)
            return RenderFlights.Rendered(data: data, timing: ServerTiming(queue: queue, decode: report.decodeSeconds,
                                          filter: report.filterSeconds, encode: report.encodeSeconds,
                                          total: (ContinuousClock.now - began) / .seconds(1)))
        }
        if shared { metrics.coalesced.increment() }
        let flights = self.flights
        let rendered: RenderFlights.Rendered
        do {
            rendered = try await whileConnected(context) {
                try await withTaskCancellationHandler { try await flight.value } onCancel: {
                    Task { await flights.leave(tag, waiter: waiter) }
                }
            }
        } catch {
            await flights.leave(tag, waiter: waiter)
            throw error
        }
        await flights.leave(tag, waiter: waiter)
        let data = rendered.data
        metrics.bytesOut.increment(by: Int64(data.count))
        headers[.contentType] = fileFormat.mediaType
        headers[HTTPField.Name("Server-Timing")!] = ServerTiming.header(fetch: fetchSeconds, rendered.timing.header)
        headers[.contentLength] = String(data.count)
        return Response(status: .ok, headers: headers,
                        body: head ? .init() : .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The source segments of a render path `/r/SIG/PRESET/SOURCE…` as written, empty segments kept (so that
    /// `a//b` and `a/b/` are not `a/b`); nil when the path is not of that shape, or spells the signature or the
    /// preset otherwise than as given (percent-encoded).
    static func spelledSource(_ path: String, signature: String, preset: String) -> [Substring]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 5, parts[0].isEmpty, parts[1] == "r", parts[2] == signature, parts[3] == preset else { return nil }
        return parts[4...].map { part -> Substring in
            guard let decoded = part.removingPercentEncoding else { return part }
            return Substring(decoded)
        }
    }

    /// Checks what `filterserve sign` is asked to sign: a preset that exists in `presets` (with the nearest name when
    /// not) and a format the server writes; the message says what is wrong.
    public static func checkSignable(preset: String, format: String?, presets folder: String) throws {
        try checkSignable(preset: preset, options: RenderURLOptions(format: format), presets: folder)
    }

    /// `checkSignable` for a URL with options: the values in range (sizes up to the default `--max-url-size`) and
    /// a preset that can be sized when a size is asked for.
    public static func checkSignable(preset: String, options: RenderURLOptions, presets folder: String) throws {
        try options.check(maxSize: ServeConfiguration().maxURLSize)
        let presets = try SourceRoot(folder, option: "--presets")
        guard let path = presets.presetFile(preset) else {
            throw ServeError(.notFound, "no preset named \"\(preset)\" in \(folder)" + NearestName.hint(for: preset, in: presets.presetNames))
        }
        if let format = options.format, ImageFileFormat(word: format)?.isWritten != true {
            throw ServeError(.badRequest, "format \"\(format)\" is not one of " + ImageFileFormat.formatWords.joined(separator: ", "))
        }
        if options.sizes { _ = try options.applied(to: try Recipe(contentsOfFile: path), preset: preset) }
    }

    /// `recipe` allowed to read files only in the presets folder and the configured file folders.
    func confined(_ recipe: Recipe) -> Recipe {
        var recipe = recipe
        recipe.fileFolders = [presets.root] + configuration.fileFolders
        return recipe
    }

    /// The renderer every request uses: the configured backend (the CPU by default), the pixel limit checked from
    /// the header.
    var renderer: Renderer { Self.renderer(maxPixels: configuration.maxPixels, backend: configuration.backend) }

    static func renderer(maxPixels: Int, backend: Backend = .cpu) -> Renderer {
        var options = Renderer.Options()
        options.maxPixels = maxPixels
        var renderer = Renderer(backend: backend, options: options)
        // A server's requests share the device's opening: `auto` prices a request without it.
        renderer.sharedRenders = 1_000_000
        return renderer
    }

    /// Under `auto`: opens the device now when a preset, rendered at 12 MP, is priced cheaper there, so no request
    /// waits for the opening; says what was decided (nil for the other backends).
    public func prepareDevice() -> String? {
        guard configuration.backend == .auto else { return nil }
        let recipes = presets.presetNames.compactMap { name in
            presets.presetFile(name).flatMap { try? Recipe(contentsOfFile: $0) }.map { (name, $0) }
        }
        return renderer.openDeviceIfUsed(by: recipes, width: 4000, height: 3000)
    }

    /// `queued(_:)` for work that also gives its report.
    /// Also when the slot was had (the end of the wait).
    func queuedRender(_ work: @escaping @Sendable (RenderControl) throws -> (data: Data, report: RenderReport)) async throws
        -> (data: Data, report: RenderReport, started: ContinuousClock.Instant) {
        let box = ReportBox()
        let data = try await queued { control in
            box.started = ContinuousClock.now
            let (data, report) = try work(control)
            box.report = report
            return data
        }
        guard let report = box.report, let started = box.started else { throw ServeError(.internalServerError, "a render gave no report") }
        return (data, report, started)
    }

    /// `work` run when the queue has a slot (503 when it cannot wait), on a thread of its own (the engine blocks;
    /// the server's tasks must not), cancelled at the deadline or when the request's task is (its client went away).
    func queued(_ work: @escaping @Sendable (RenderControl) throws -> Data) async throws -> Data {
        // Counted as load from here, waiting or not, so renders already running keep to one thread each.
        let expected = RenderLoad.Expected()
        let entered: Bool
        do { entered = try await queue.enter() } catch {
            metrics.abandoned.increment()
            throw error
        }
        guard entered else {
            throw ServeError(.serviceUnavailable, "the render queue is full; try again shortly", headers: [.retryAfter: "1"])
        }
        metrics.queueDepth.set(Double(await queue.depth))
        do {
            let data = try await renderOffThread(work, expected: expected)
            await queue.leave()
            return data
        } catch {
            await queue.leave()
            throw error
        }
    }

    func renderOffThread(_ work: @escaping @Sendable (RenderControl) throws -> Data, expected: RenderLoad.Expected) async throws -> Data {
        let control = RenderControl()
        let began = ContinuousClock.now
        let deadline = Task {
            try await Task.sleep(for: configuration.deadline)
            control.cancel()
        }
        defer { deadline.cancel() }
        let result: Result<Data, any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A kept stage thread, not a new one a request (`StageThreads`).
                StageThreads.run {
                    expected.started()
                    continuation.resume(returning: Result { try work(control) })
                }
            }
        } onCancel: {
            control.cancel()
        }
        metrics.renderSeconds.record(ContinuousClock.now - began)
        if case .failure(RenderError.cancelled) = result, Task.isCancelled {
            metrics.abandoned.increment()
            throw CancellationError()
        }
        do { return try result.get() } catch { throw served(error) }
    }

    /// An engine error as an HTTP answer, its message free of the served folders' paths.
    func served(_ error: any Error) -> ServeError {
        if let served = error as? ServeError { return served }
        let message = sources.redacted(presets.redacted("\(error)"))
        switch error {
        case RenderError.input(let failure) where failure.kind == .tooLarge:
            return ServeError(.contentTooLarge, message)
        case RenderError.input:
            return ServeError(.unprocessableContent, message)
        case RenderError.cancelled:
            return ServeError(.serviceUnavailable, "the render ran past its deadline", headers: [.retryAfter: "1"])
        case is RecipeError, RenderError.recipe:
            // A recipe that cannot run on this source (a cost over the limit, a size past 2^28 pixels, a missing
            // LUT) is the request's problem, named by its JSON path; 500 is kept for the server's own faults.
            return ServeError(.unprocessableContent, "the recipe cannot run on this source: \(message)")
        default:
            return ServeError(.internalServerError, message)
        }
    }

    /// The format asked for; else, of the negotiated formats (`--negotiate`, WebP then AVIF by default), the one the
    /// client's Accept names with the highest quality (ties go to the server's order; `image/*` and `*/*` name
    /// none of them); else `fallback`. And whether it was negotiated (the response then varies by Accept).
    func outputFormat(_ asked: String?, accept: String?, fallback: ImageFileFormat) throws -> (ImageFileFormat, Bool) {
        if let asked {
            guard let format = ImageFileFormat(word: asked), format.isWritten else {
                throw ServeError(.badRequest, "format \"\(asked)\" is not one of " + ImageFileFormat.formatWords.joined(separator: ", "))
            }
            return (format, false)
        }
        let weights = Self.acceptWeights(accept ?? "")
        let best = configuration.negotiated.enumerated()
            .compactMap { entry -> (ImageFileFormat, Double, Int)? in
                guard let q = weights[entry.element.mediaType], q > 0 else { return nil }
                return (entry.element, q, entry.offset)
            }
            .max { ($0.1, -$0.2) < ($1.1, -$1.2) }
        return (best?.0 ?? fallback, true)
    }

    /// Media types of an Accept header with their quality (RFC 9110 §12.5.1; 1 when not given).
    static func acceptWeights(_ header: String) -> [String: Double] {
        var weights = [String: Double]()
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let type = parts.first?.lowercased(), !type.isEmpty else { continue }
            let q = parts.dropFirst().first { $0.lowercased().hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            weights[type] = max(weights[type] ?? 0, min(max(q, 0), 1))
        }
        return weights
    }

    /// A strong validator: the signed payload, the format, and a validator of everything read (a file's size and
    /// modification time, a fetched source's digest).
    func etag(payload: String, format: ImageFileFormat, validators: [String]) throws -> String {
        let text = ([payload, format.rawValue] + validators).joined(separator: "\u{0}")
        return "\"" + Digests.sha256Hex(text).prefix(32) + "\""
    }

    /// A file's size and modification time.
    func fileValidator(_ file: String) throws -> String {
        var info = stat()
        guard stat(file, &info) == 0 else { throw ServeError(.notFound, "a file vanished") }
        return "\(info.st_size)\u{0}\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}

/// Counts every answered request by status and preset, and logs it: one structured line a request (swift-log
/// metadata, with Hummingbird's request id), errors at their message.
struct CountingMiddleware: RouterMiddleware {
    typealias Context = ServeContext
    let metrics: ServeMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let preset = request.uri.path.hasPrefix("/r/") ? String(request.uri.path.split(separator: "/").dropFirst(2).first ?? "-") : "-"
        let began = ContinuousClock.now
        func log(_ status: HTTPResponse.Status, _ message: String? = nil) {
            let elapsed = ContinuousClock.now - began
            var metadata: Logger.Metadata = [
                "method": .string(request.method.rawValue), "path": .string(request.uri.path),
                "status": .stringConvertible(status.code), "preset": .string(preset),
                "ms": .string(String(format: "%.1f", elapsed / .milliseconds(1))),
            ]
            if let message { metadata["error"] = .string(message) }
            context.logger.log(level: status.code >= 500 ? .error : .info, "answered", metadata: metadata)
        }
        do {
            let response = try await next(request, context)
            metrics.request(status: Int(response.status.code), preset: preset)
            log(response.status)
            return response
        } catch let error as ServeError {
            metrics.request(status: Int(error.status.code), preset: preset)
            log(error.status, error.message)
            throw error
        } catch let error as any HTTPResponseError {
            metrics.request(status: Int(error.status.code), preset: preset)
            log(error.status)
            throw error
        }
    }
}

/// A render's report carried out of the thread it ran on (written once, before the work returns, read after).
final class ReportBox: @unchecked Sendable {
    var report: RenderReport?
    var started: ContinuousClock.Instant?
}
