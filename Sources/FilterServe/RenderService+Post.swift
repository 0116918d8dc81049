import FilterRecipe
import Foundation
import HTTPTypes
import Hummingbird
import MultipartKit
import NIOCore

/// `POST /render`: a recipe of the caller's own (multipart/form-data field `recipe`, JSON) on an uploaded image
/// (`image`) or a source (`source`, a path under the sources folder), as `format` (or negotiated). Accepted when the
/// server allows free recipes, or when `signature` signs the recipe (`URLSigner.recipePayload`): a recipe approved by
/// a key holder may then be applied to any upload.
extension RenderService {
    struct PostedForm: Decodable {
        var recipe: String
        var image: Data?
        var source: String?
        var format: String?
        var signature: String?
    }

    func renderPosted(_ request: Request, _ context: ServeContext) async throws -> Response {
        guard let type = request.headers[.contentType], type.lowercased().hasPrefix("multipart/form-data"),
              let boundary = type.split(separator: ";").lazy.map({ $0.trimmingCharacters(in: .whitespaces) })
                .first(where: { $0.hasPrefix("boundary=") })?.dropFirst("boundary=".count) else {
            throw ServeError(.unsupportedMediaType, "send multipart/form-data with the fields recipe and image (or source)")
        }
        let body = try await upload(request, context)
        let form: PostedForm
        let separator = boundary.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        guard MultipartGuard.isSafe(body, boundary: separator) else {
            throw ServeError(.badRequest, "the form is malformed: a part header name holds a byte that is not ASCII")
        }
        do {
            form = try FormDataDecoder().decode(PostedForm.self, from: body, boundary: separator)
        } catch { throw ServeError(.badRequest, "the form needs a recipe field and an image (or source) field") }
        let recipe: Recipe
        do { recipe = try Recipe(json: Data(form.recipe.utf8)) } catch {
            throw ServeError(.badRequest, "the recipe is invalid: \(error)")
        }
        let canonical = String(decoding: try recipe.jsonData(), as: UTF8.self)
        let signed = form.signature.map { signer.verify($0, payload: URLSigner.recipePayload(canonical)) } ?? false
        guard configuration.allowRecipes || signed else {
            throw ServeError(.forbidden, form.signature == nil
                ? "this server renders only signed recipes: add a signature field (filterserve sign-recipe)"
                : "the signature does not match this recipe")
        }
        let input: ImageInput
        switch (form.image, form.source) {
        case let (image?, nil): input = .encoded(image, name: "upload")
        case let (nil, source?) where source.hasPrefix("@"):
            let parts = source.split(separator: "/", omittingEmptySubsequences: false)
            let fetched = try await whileConnected(context) {
                try await fetcher.fetch(origin: String(parts[0].dropFirst()), path: Array(parts.dropFirst()))
            }
            input = .encoded(fetched.data, name: source)
        case let (nil, source?):
            guard let path = sources.file(source.split(separator: "/")) else { throw ServeError(.notFound, "no source \"\(source)\"") }
            input = .file(path)
        default: throw ServeError(.badRequest, "give one of image (an upload) and source (a path under the sources folder)")
        }
        let (format, negotiated) = try outputFormat(form.format, accept: request.headers[.accept], fallback: .png)
        let renderer = self.renderer
        let name = recipe.inputs.first ?? "main"
        let data = try await whileConnected(context) {
            try await queued { try renderer.render(recipe, sources: [name: input], as: format, control: $0).data }
        }
        metrics.bytesOut.increment(by: Int64(data.count))
        var headers: HTTPFields = [.contentType: format.mediaType, .contentLength: String(data.count), .cacheControl: "no-store"]
        if negotiated { headers[.vary] = "Accept" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The request's body, at most `maxUploadBytes` (413 beyond) and within `uploadTimeoutSeconds` in all (408
    /// beyond: a client trickling its body, byte by byte, never goes idle, so the idle timeout alone would not end it).
    func upload(_ request: Request, _ context: ServeContext) async throws -> ByteBuffer {
        let limit = configuration.maxUploadBytes, seconds = configuration.uploadTimeoutSeconds
        return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                do { return try await request.body.collect(upTo: limit) } catch is CancellationError { throw CancellationError() } catch {
                    throw ServeError(.contentTooLarge, "the upload is over \(limit) bytes")
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let body = try await group.next() ?? nil else {
                // The 408 goes out, then the connection closes: the rest of a trickled body is not waited for.
                if let channel = context.channel {
                    channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
                }
                throw ServeError(.requestTimeout, "the upload took longer than \(seconds) s", headers: [.connection: "close"])
            }
            return body
        }
    }
}
