import FilterRecipe
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// The recipe playground (`--playground`): `GET /` serves a page (plain HTML and JavaScript, no build step) that
/// edits a recipe as JSON with sliders generated from the recipe schema, and shows a live preview rendered here by
/// a `PreviewSession` per source (decoded once at preview size; a change re-runs only the nodes it reaches), with
/// the plan, the session's statistics and a signed request. For recipe authors on their own machine: it renders any
/// recipe on the sources and, with keys configured, signs it — never expose it with production keys.
final class Playground: Sendable {
    static let previewWidth = 800
    static let maxSessions = 4
    static let maxUploads = 8

    let sources: SourceRoot
    let presets: SourceRoot
    let signer: URLSigner
    let bodies: BodyReader
    /// The folders recipes may read files from: the presets folder first, so a preset's `.cube` named relative to it
    /// loads here as it does at `GET /r/…`.
    let fileFolders: [String]
    /// The service's renderer: its pixel limit applies to sources and uploads alike.
    let renderer: Renderer
    private let uploads: URL
    private struct State {
        var sessions: [(source: String, session: PreviewSession)] = []
        var uploaded: [String] = []
    }
    private let state = NIOLockedValueBox(State())

    init(sources: SourceRoot, presets: SourceRoot, signer: URLSigner, bodies: BodyReader, fileFolders: [String],
         renderer: Renderer) throws {
        self.renderer = renderer
        self.fileFolders = [presets.root] + fileFolders
        self.sources = sources
        self.presets = presets
        self.signer = signer
        self.bodies = bodies
        uploads = FileManager.default.temporaryDirectory.appendingPathComponent("filterserve-playground-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: uploads) }

    func add(to router: Router<ServeContext>, queue: @escaping @Sendable (@escaping @Sendable (RenderControl) throws -> Data) async throws -> Data) {
        let pages: [(String, @Sendable () throws -> Response)] = [
            ("/", { Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                             body: .init(byteBuffer: ByteBuffer(string: PlaygroundPage.html))) }),
            ("playground/schema.json", { Self.json(try CommandLineFace.recipeSchema()) }),
            ("playground/sources", { Self.json(try JSONEncoder().encode(self.sourceNames())) }),
            ("playground/presets", { Self.json(try JSONEncoder().encode(self.presetTexts())) }),
        ]
        for (path, page) in pages {
            router.get(RouterPath(path)) { _, _ in try page() }
            router.head(RouterPath(path)) { _, _ in
                let response = try page()
                return Response(status: response.status, headers: response.headers, body: .init())
            }
        }
        router.post("playground/upload") { request, context in
            let body = try await self.bodies.collect(request, context)
            guard body.readableBytes > 0 else { throw ServeError(.badRequest, "send the image's bytes as the body") }
            return Self.json(try JSONEncoder().encode(["source": try self.store(Data(buffer: body))]))
        }
        router.post("playground/preview") { request, context in
            let body = try await request.body.collect(upTo: 1 << 20)
            let asked: PreviewRequest
            do { asked = try JSONDecoder().decode(PreviewRequest.self, from: body) } catch {
                throw ServeError(.badRequest, "send {\"recipe\": \"RECIPE JSON TEXT\", \"source\": \"NAME\"} as JSON")
            }
            let answer = try await queue { _ in try JSONEncoder().encode(try self.preview(asked)) }
            return Self.json(answer)
        }
    }

    /// The recipe as the author's text (so every problem is named by its JSON path there) and the source's name.
    struct PreviewRequest: Decodable {
        var recipe: String
        var source: String
        /// The output's format and quality, to see what they cost (PNG by default).
        var format: String?
        var quality: Int?
    }

    struct PreviewAnswer: Encodable {
        var image: String
        /// The encoded preview's size in bytes.
        var bytes: Int
        var statistics: [String: Int]
        var explain: String
        var signature: String?
    }

    func preview(_ asked: PreviewRequest) throws -> PreviewAnswer {
        var recipe: Recipe
        do { recipe = try Recipe(json: Data(asked.recipe.utf8)) } catch {
            throw ServeError(.badRequest, "\(error)")
        }
        recipe.fileFolders = fileFolders
        let (session, path) = try self.session(for: asked.source)
        let before = session.statistics
        let format = try asked.format.map { word -> ImageFileFormat in
            guard let format = ImageFileFormat(word: word), format.isPreviewedInBrowsers else {
                throw ServeError(.badRequest, "a preview is "
                    + ImageFileFormat.allCases.filter(\.isPreviewedInBrowsers).map(\.rawValue).joined(separator: ", ")
                    + ", not \"\(word)\"")
            }
            return format
        } ?? .png
        if let quality = asked.quality, !(1...100).contains(quality) {
            throw ServeError(.badRequest, "quality must be from 1 to 100, got \(quality)")
        }
        var image: Data
        do {
            image = try session.renderPNG(recipe)
            // Another format: the preview encoded again as the output would be, so its artefacts and size show.
            if format != .png {
                let options = RenderURLOptions(quality: asked.quality).applied(to: renderer.options)
                image = try Renderer(backend: .cpu, options: options)
                    .render(Recipe.chain([]), encoded: ["main": image], as: format).data
            }
        } catch {
            throw ServeError(.unprocessableContent, sources.redacted("\(error)"))
        }
        let after = session.statistics
        let explain = (try? session.renderer.explain(recipe, inputs: ["main": path])).map(sources.redacted) ?? ""
        let canonical = String(decoding: try recipe.jsonData(), as: UTF8.self)
        return PreviewAnswer(
            image: "data:\(format.mediaType);base64," + image.base64EncodedString(), bytes: image.count,
            statistics: ["nodesRun": after.nodesRun - before.nodesRun, "nodesFromCache": after.nodesFromCache - before.nodesFromCache,
                         "cachedBytes": after.cachedBytes],
            explain: explain, signature: signer.signature(for: URLSigner.recipePayload(canonical)))
    }

    /// The preview session of a source (opened on first use; the least recently used of more than four is closed).
    func session(for source: String) throws -> (PreviewSession, String) {
        let path: String
        if source.hasPrefix("upload:") {
            let name = String(source.dropFirst("upload:".count))
            guard name.allSatisfy({ $0.isHexDigit || $0 == "-" }), state.withLockedValue({ $0.uploaded.contains(name) }) else {
                throw ServeError(.notFound, "no upload \(source)")
            }
            path = uploads.appendingPathComponent(name).path
        } else {
            guard let file = sources.file(source.split(separator: "/")) else { throw ServeError(.notFound, "no source \"\(source)\"") }
            path = file
        }
        if let open = state.withLockedValue({ state -> PreviewSession? in
            guard let index = state.sessions.firstIndex(where: { $0.source == source }) else { return nil }
            let entry = state.sessions.remove(at: index)
            state.sessions.append(entry)
            return entry.session
        }) { return (open, path) }
        let session: PreviewSession
        do {
            session = try PreviewSession(inputs: ["main": path], previewWidth: Self.previewWidth, renderer: renderer,
                                         cacheBudget: 128 << 20)
        } catch {
            throw ServeError(.unprocessableContent, sources.redacted("\(error)"))
        }
        state.withLockedValue { state in
            state.sessions.append((source, session))
            if state.sessions.count > Self.maxSessions { state.sessions.removeFirst() }
        }
        return (session, path)
    }

    /// Keeps an uploaded image (the oldest of more than eight goes) and names it.
    func store(_ data: Data) throws -> String {
        let name = UUID().uuidString.lowercased()
        try data.write(to: uploads.appendingPathComponent(name))
        let dropped = state.withLockedValue { state -> String? in
            state.uploaded.append(name)
            return state.uploaded.count > Self.maxUploads ? state.uploaded.removeFirst() : nil
        }
        if let dropped {
            try? FileManager.default.removeItem(at: uploads.appendingPathComponent(dropped))
            state.withLockedValue { $0.sessions.removeAll { $0.source == "upload:" + dropped } }
        }
        return "upload:" + name
    }

    /// Images under the sources folder, by their paths there.
    func sourceNames() -> [String] {
        let root = URL(fileURLWithPath: sources.root)
        let images = Set(ImageFileFormat.allCases.flatMap(\.extensions))
        let found = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { item -> String? in
            guard let url = item as? URL, images.contains(url.pathExtension.lowercased()) else { return nil }
            let relative = String(url.path.dropFirst(root.path.count + 1))
            return relative.split(separator: "/").contains { $0.hasPrefix(".") } ? nil : relative
        } ?? []
        return found.sorted()
    }

    /// Each preset's recipe text, by name.
    func presetTexts() -> [String: String] {
        var texts = [String: String]()
        for name in presets.presetNames {
            if let path = presets.presetFile(name), let text = try? String(contentsOfFile: path, encoding: .utf8),
               (try? Recipe(json: Data(text.utf8))) != nil {
                texts[name] = text
            }
        }
        return texts
    }

    static func json(_ data: Data) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
