import FilterCore
import FilterRecipe
@testable import FilterServe
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TestSupport
import XCTest

/// The requests an outside pass found wanting: a recipe naming a file outside the presets folder, signatures in
/// other spellings, forms with many parts or a declared length past the limit, a signature checked only after the
/// image was read, redirects spelled with percent-encoded dot segments, and invalid presets answered 500.
final class HostileRequestTests: XCTestCase {
    let boundary = "hostile-boundary"
    let photo = "chelsea_451x300_rgb8.png"

    func service(_ change: (inout ServeConfiguration) -> Void = { _ in }) throws -> RenderService {
        try testService(keys: ["secret"], change)
    }

    func test(_ service: RenderService, _ body: @escaping @Sendable (ServeClient) async throws -> Void) async throws {
        try await RouterClient.run(service.router()) { client in try await body(client) }
    }

    /// A form of text parts in the order given, then an optional image part and the closing boundary.
    func form(_ fields: [(String, String)], image: Data? = nil, close: Bool = true) -> ByteBuffer {
        var body = Data()
        for (name, value) in fields {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        if let image {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"\r\n\r\n".utf8) + image + Data("\r\n".utf8)
        }
        if close { body += Data("--\(boundary)--\r\n".utf8) }
        return ByteBuffer(bytes: body)
    }

    var headers: HTTPFields { [.contentType: "multipart/form-data; boundary=\(boundary)"] }

    func lutRecipe(_ path: String) -> String {
        #"{"version": 1, "steps": [{"op": "resize", "width": 64}, {"op": "lut", "path": "\#(path)"}]}"#
    }

    /// A posted recipe's LUT is a relative path inside the presets folder (or a folder named by --files-folder):
    /// absolute paths, `..` and links leading out are refused, and nothing of the file is read.
    func testRecipesReadFilesOnlyInsideThePresetsFolder() async throws {
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let presets = scratch.appendingPathComponent("presets"), outside = scratch.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let cube = Fixtures.repository.appendingPathComponent("recipes/looks/warm-film.cube").path
        try FileManager.default.copyItem(atPath: cube, toPath: presets.appendingPathComponent("inside.cube").path)
        try FileManager.default.copyItem(atPath: cube, toPath: outside.appendingPathComponent("secret.cube").path)
        try FileManager.default.createSymbolicLink(atPath: presets.appendingPathComponent("link.cube").path,
                                                   withDestinationPath: outside.appendingPathComponent("secret.cube").path)
        let service = try service { $0.presets = presets.path; $0.allowRecipes = true }
        try await test(service) { client in
            try await client.execute(uri: "/render", method: .post, headers: self.headers,
                                     body: self.form([("recipe", self.lutRecipe("inside.cube")), ("source", self.photo)])) { response in
                XCTAssertEqual(response.status, .ok, String(buffer: response.body))
            }
            for (path, words) in [(outside.appendingPathComponent("secret.cube").path, "absolute path"), ("../outside/secret.cube", "outside"),
                                  ("link.cube", "outside"), ("/etc/passwd", "path")] {
                try await client.execute(uri: "/render", method: .post, headers: self.headers,
                                         body: self.form([("recipe", self.lutRecipe(path)), ("source", self.photo)])) { response in
                    let text = String(buffer: response.body)
                    // A name that is not a table's (.cube, .png) is refused with the recipe (400), before rendering.
                    XCTAssertEqual(response.status, path.hasSuffix(".cube") ? .unprocessableContent : .badRequest, "\(path): \(text)")
                    XCTAssertTrue(text.contains(words) && text.contains("steps[1]"), "\(path): \(text)")
                    // The server's own folders are never shown (a path the client gave is its own words).
                    if !path.hasPrefix("/") { XCTAssertFalse(text.contains(scratch.path), "no server path is shown: \(text)") }
                }
            }
        }
        // A folder named by --files-folder is readable too, by a path relative to the presets folder.
        let widened = try self.service { $0.presets = presets.path; $0.allowRecipes = true; $0.fileFolders = [outside.path] }
        try await test(widened) { client in
            try await client.execute(uri: "/render", method: .post, headers: self.headers,
                                     body: self.form([("recipe", self.lutRecipe("../outside/secret.cube")), ("source", self.photo)])) { response in
                XCTAssertEqual(response.status, .ok, String(buffer: response.body))
            }
        }
    }

    /// One signature, one URL: a doubled or trailing slash in the source, base64 padding, the standard alphabet and
    /// every other spelling of the signature's last character are refused.
    func testSignaturesHaveOneSpelling() async throws {
        let service = try service()
        let good = try XCTUnwrap(service.signer.path(preset: "vignette", source: "nested/\(photo)", format: "png"))
        let signature = String(good.split(separator: "/")[1])
        XCTAssertEqual(signature.count, 43)
        var variants = ["/r/\(signature)=/vignette/nested/\(photo)?format=png",
                        "/r/\(signature)/vignette/nested//\(photo)?format=png",
                        "/r/\(signature)/vignette/nested/\(photo)/?format=png"]
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for c in alphabet where c != signature.last! {
            let other = String(signature.dropLast()) + String(c)
            // Only a spelling that decodes to the same bytes could be accepted by a check on decoded bytes.
            if URLSigner.decode(other) == URLSigner.decode(signature) { variants.append("/r/\(other)/vignette/nested/\(photo)?format=png") }
        }
        XCTAssertGreaterThanOrEqual(variants.count, 6, "the last character's unused bits give variants")
        XCTAssertTrue(service.signer.verify(signature, payload: URLSigner.payload(preset: "vignette", source: "nested/\(photo)", format: "png")))
        let spellings = variants
        try await test(service) { client in
            for uri in spellings {
                try await client.execute(uri: uri, method: .get) { response in
                    XCTAssertEqual(response.status, .forbidden, uri)
                }
            }
        }
    }

    /// The form reader is linear: 20 000 empty parts are refused at the 17th; BOUNDARY= is boundary=; a body's
    /// declared length over the limit is refused before any of it is read, and a malformed length is 400.
    func testFormsAreBoundedBeforeTheyAreRead() async throws {
        let service = try service { $0.allowRecipes = true; $0.maxUploadBytes = 4 << 20 }
        try await test(service) { client in
            let many = ByteBuffer(string: (1...20_000).map { "--\(self.boundary)\r\nContent-Disposition: form-data; name=\"p\($0)\"\r\n\r\n\r\n" }.joined()
                + "--\(self.boundary)--\r\n")
            try await client.execute(uri: "/render", method: .post, headers: self.headers, body: many) { response in
                XCTAssertEqual(response.status, .badRequest)
                XCTAssertTrue(String(buffer: response.body).contains("more than 16 parts"), String(buffer: response.body))
            }
            let upper: HTTPFields = [.contentType: "multipart/form-data; BOUNDARY=\(self.boundary)"]
            try await client.execute(uri: "/render", method: .post, headers: upper,
                                     body: self.form([("recipe", #"{"version": 1, "steps": [{"op": "resize", "width": 32}]}"#),
                                                      ("source", self.photo)])) { response in
                XCTAssertEqual(response.status, .ok, String(buffer: response.body))
            }
        }
        var reader = try FormDataReader(boundary: "b")
        // Fed a byte at a time, parts are still found, and known as soon as each ends.
        let body = Array("preamble\r\n--b\r\nContent-Disposition: form-data; name=\"recipe\"\r\n\r\n{}\r\n--b\r\nContent-Disposition: form-data; name=\"image\"\r\n\r\nx\r\n-b\r\n--b--\r\n".utf8)
        var recipeSeenAt: Int?
        for (i, byte) in body.enumerated() {
            try reader.feed([byte])
            if recipeSeenAt == nil, reader.has("recipe") { recipeSeenAt = i }
        }
        XCTAssertTrue(reader.isFinished)
        XCTAssertEqual(reader.text("recipe"), "{}")
        XCTAssertEqual(reader.text("image"), "x\r\n-b")
        XCTAssertLessThan(try XCTUnwrap(recipeSeenAt), body.count - 40, "the recipe is known before the image arrives")
        // A declared length over the limit is refused from the headers, before the body is read.
        let bodies = BodyReader(maxBytes: 1000, seconds: 5, gate: UploadGate(limit: 1))
        for (length, status) in [("1000000000000", HTTPResponse.Status.contentTooLarge), ("zz", .badRequest), ("1000", nil)] {
            let request = Request(head: HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/render",
                                                    headerFields: [.contentLength: length]), body: RequestBody(buffer: ByteBuffer()))
            do {
                try bodies.checkDeclared(request)
                XCTAssertNil(status, length)
            } catch let error as ServeError {
                XCTAssertEqual(error.status, status, length)
                XCTAssertEqual(error.headers[.connection], "close")
            }
        }
    }

    /// On a server that runs only signed recipes, a bad signature is answered before the image is read: the image
    /// part here never ends (no closing boundary), which would be a 400 had the body been read first.
    func testTheSignatureIsCheckedBeforeTheImage() async throws {
        let service = try service()
        let recipe = #"{"version": 1, "steps": [{"op": "resize", "width": 32}]}"#
        let image = Data(repeating: 7, count: 100_000)
        try await test(service) { client in
            try await client.execute(uri: "/render", method: .post, headers: self.headers,
                                     body: self.form([("recipe", recipe), ("signature", String(repeating: "A", count: 43))], image: image, close: false)) { response in
                XCTAssertEqual(response.status, .forbidden, String(buffer: response.body))
                XCTAssertEqual(response.headers[.connection], "close")
            }
            try await client.execute(uri: "/render", method: .post, headers: self.headers,
                                     body: self.form([("recipe", recipe)], image: image, close: false)) { response in
                XCTAssertEqual(response.status, .forbidden, String(buffer: response.body))
                XCTAssertTrue(String(buffer: response.body).contains("signed recipes"))
            }
        }
    }

    /// A preset that cannot run on a source — a size past the limit, a cost over the limit, a missing LUT — is the
    /// request's problem (422, named by its JSON path), not the server's (500).
    func testInvalidPresetsAre4xxWithTheirPath() async throws {
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let presets: [String: String] = [
            "huge": #"{"version": 1, "steps": [{"op": "resize", "width": 60000, "height": 60000, "fit": "fill"}]}"#,
            "costly": #"{"version": 1, "steps": [{"op": "blur", "sigma": 2000}]}"#,
            "nolut": #"{"version": 1, "steps": [{"op": "lut", "path": "missing.cube"}]}"#,
        ]
        for (name, text) in presets { try text.write(to: scratch.appendingPathComponent("\(name).json"), atomically: true, encoding: .utf8) }
        let service = try service { $0.presets = scratch.path; $0.allowUnsigned = true }
        try await test(service) { client in
            for name in presets.keys.sorted() {
                try await client.execute(uri: "/r/_/\(name)/\(self.photo)?format=png", method: .get) { response in
                    let text = String(buffer: response.body)
                    XCTAssertEqual(response.status, .unprocessableContent, "\(name): \(text)")
                    XCTAssertTrue(text.contains("steps[0]"), "\(name): \(text)")
                }
            }
        }
    }

    /// A redirect's path is checked on its decoded segments: `%2e%2e` is `..` to the origin's server.
    func testRedirectsAreCheckedDecoded() throws {
        let base = try XCTUnwrap(URL(string: "http://origin.example/photos/"))
        func allowed(_ text: String) -> String? { URL(string: text).flatMap { OriginFetcher.canonical($0, within: base) }?.absoluteString }
        XCTAssertEqual(allowed("http://origin.example/photos/a/b.png"), "http://origin.example/photos/a/b.png")
        XCTAssertEqual(allowed("http://origin.example/photos/a%20b.png"), "http://origin.example/photos/a%20b.png")
        for hostile in ["http://origin.example/photos/%2e%2e/secret/x.png", "http://origin.example/photos/%2E%2E/secret/x.png",
                        "http://origin.example/photos/..%2fsecret/x.png", "http://origin.example/photos/../secret/x.png",
                        "http://origin.example/photos/a/%2e/b.png", "http://origin.example/photos//x.png",
                        "http://origin.example/photos%2fx.png", "http://origin.example/secret/x.png",
                        "http://user@origin.example/photos/x.png", "https://origin.example/photos/x.png",
                        "http://origin.example:8080/photos/x.png", "http://other.example/photos/x.png",
                        "http://origin.example/photos/a%5c..%5cx.png", "http://origin.example/photos/"] {
            XCTAssertNil(allowed(hostile), hostile)
        }
    }
}
