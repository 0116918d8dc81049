import FilterRecipe
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `POST /render`: a recipe of the caller's own (multipart/form-data field `recipe`, JSON) on an uploaded image
/// (`image`) or a source (`source`, a path under the sources folder), as `format` (or negotiated). Accepted when the
/// server allows free recipes, or when `signature` signs the recipe (`URLSigner.recipePayload`): a recipe approved by
/// a key holder may then be applied to any upload.
extension RenderService {
    func renderPosted(_ request: Request, _ context: ServeContext) async throws -> Response {
        // Media type parameters' names are case-insensitive (RFC 9110 §8.3.1): BOUNDARY= is boundary=.
        guard let type = request.headers[.contentType], type.lowercased().hasPrefix("multipart/form-data"),
              let boundary = type.split(separator: ";").lazy.map({ $0.trimmingCharacters(in: .whitespaces) })
                .first(where: { $0.lowercased().hasPrefix("boundary=") })?.dropFirst("boundary=".count) else {
            throw ServeError(.unsupportedMediaType, "send multipart/form-data with the fields recipe and image (or source)")
        }
        let separator = boundary.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        let reader: FormDataReader
        do { reader = try FormDataReader(boundary: separator) } catch { throw ServeError(.badRequest, "the form is malformed: \(error)") }
        // Parts are read as they arrive; on a server that renders only signed recipes, the signature is checked as
        // soon as the recipe and the signature have come (send them before the image), before the image is read.
        let signer = self.signer, signedOnly = !configuration.allowRecipes
        let (form, verified) = try await bodies.read(request, context, into: (reader, false)) { state, buffer in
            do { try state.0.feed(buffer.readableBytesView) } catch {
                throw ServeError(.badRequest, "the form is malformed: \(error)", headers: [.connection: "close"])
            }
            let form = state.0
            if signedOnly, !state.1, form.has("recipe"),
               form.has("signature") || form.receiving.map({ $0 != "recipe" && $0 != "signature" }) == true {
                try Self.checkSignature(form, signer: signer)
                state.1 = true
            }
            return !form.isFinished
        }
        do { try form.finish() } catch { throw ServeError(.badRequest, "the form is malformed: \(error)") }
        guard let recipeText = form.text("recipe") else {
            throw ServeError(.badRequest, "the form needs a recipe field and an image (or source) field")
        }
        if signedOnly && !verified { try Self.checkSignature(form, signer: signer) }
        let recipe: Recipe
        do { recipe = confined(try Recipe(json: Data(recipeText.utf8))) } catch {
            throw ServeError(.badRequest, "the recipe is invalid: \(error)")
        }
        let formatField = form.text("format")
        let input: ImageInput
        switch (form.field("image"), form.text("source")) {
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
        let (format, negotiated) = try outputFormat(formatField, accept: request.headers[.accept], fallback: .png)
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

    /// Refuses a form whose recipe its signature does not sign (or that has no signature).
    static func checkSignature(_ form: FormDataReader, signer: URLSigner) throws {
        guard let signature = form.text("signature") else {
            throw ServeError(.forbidden, "this server renders only signed recipes: add a signature field (filterserve sign-recipe)",
                             headers: [.connection: "close"])
        }
        let canonical: String
        do { canonical = String(decoding: try Recipe(json: Data((form.text("recipe") ?? "").utf8)).jsonData(), as: UTF8.self) } catch {
            throw ServeError(.badRequest, "the recipe is invalid: \(error)", headers: [.connection: "close"])
        }
        guard signer.verify(signature, payload: URLSigner.recipePayload(canonical)) else {
            throw ServeError(.forbidden, "the signature does not match this recipe", headers: [.connection: "close"])
        }
    }
}
