import FilterCore
import FilterRecipe
@testable import FilterServe
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PNGCodec
import TestSupport
import XCTest

/// `POST /render`: a caller's recipe on an upload or a source, accepted only when free recipes are allowed or the
/// recipe is signed.
final class PostRenderTests: XCTestCase {
    let boundary = "filterserve-test-boundary"
    let recipe = #"{"version": 1, "steps": [{"op": "resize", "width": 120}, {"op": "vignette"}]}"#

    func service(_ change: (inout ServeConfiguration) -> Void = { _ in }) throws -> RenderService {
        try testService(keys: ["secret"], change)
    }

    /// A multipart/form-data body with text fields and, optionally, an image file.
    func form(_ fields: [String: String], image: Data? = nil) -> ByteBuffer {
        var body = Data()
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        if let image {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"cat.png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
            body += image + Data("\r\n".utf8)
        }
        body += Data("--\(boundary)--\r\n".utf8)
        return ByteBuffer(bytes: body)
    }

    var headers: HTTPFields { [.contentType: "multipart/form-data; boundary=\(boundary)"] }
    var photo: Data { FileManager.default.contents(atPath: Fixtures.path("photos/chelsea_451x300_rgb8.png"))! }

    func size(_ body: ByteBuffer) throws -> [Int] {
        let report = try Renderer(backend: .cpu).render(Recipe.chain([(.crop, [:])]), encoded: ["main": Data(buffer: body)], as: .png).report
        return [report.width, report.height]
    }

    func testFreeRecipesOnlyWhenAllowed() async throws {
        let refused = try service().router()
        try await RouterClient.run(refused) { client in
            try await client.execute(uri: "/render", method: .post, headers: self.headers,
                                     body: self.form(["recipe": self.recipe], image: self.photo)) { response in
                XCTAssertEqual(response.status, .forbidden)
                XCTAssertTrue(String(buffer: response.body).contains("signed recipes"))
            }
        }
        let allowed = try service { $0.allowRecipes = true }.router()
        try await RouterClient.run(allowed) { client in
            try await client.execute(uri: "/render", method: .post, headers: self.headers,
                                     body: self.form(["recipe": self.recipe, "format": "png"], image: self.photo)) { response in
                XCTAssertEqual(response.status, .ok, String(buffer: response.body))
                XCTAssertEqual(response.headers[.contentType], "image/png")
                XCTAssertEqual(try self.size(response.body), [120, 80])
            }
            try await client.execute(uri: "/render", method: .post, headers: self.headers,
                                     body: self.form(["recipe": self.recipe, "source": "chelsea_451x300_rgb8.png"])) { response in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(response.headers[.vary], "Accept")
            }
        }
    }

    /// A recipe signed by a key holder runs on any upload; another recipe under that signature does not.
    func testSignedRecipes() async throws {
        let service = try service()
        let canonical = String(decoding: try Recipe(json: Data(recipe.utf8)).jsonData(), as: UTF8.self)
        let signature = try XCTUnwrap(service.signer.signature(for: URLSigner.recipePayload(canonical)))
        let other = #"{"version": 1, "steps": [{"op": "resize", "width": 4000}]}"#
        try await RouterClient.run(service.router()) { client in
            try await client.execute(uri: "/render", method: .post, headers: self.headers,
                                     body: self.form(["recipe": self.recipe, "signature": signature, "format": "jpeg"], image: self.photo)) { response in
                XCTAssertEqual(response.status, .ok, String(buffer: response.body))
                XCTAssertEqual(response.headers[.contentType], "image/jpeg")
            }
            try await client.execute(uri: "/render", method: .post, headers: self.headers,
                                     body: self.form(["recipe": other, "signature": signature], image: self.photo)) { response in
                XCTAssertEqual(response.status, .forbidden)
                XCTAssertTrue(String(buffer: response.body).contains("does not match this recipe"))
            }
        }
    }

    /// What `filterserve sign-recipe` signs (the file's canonical JSON) is what the server checks, however the
    /// recipe is spelt in the form: as written, its keys reordered and its numbers respelt by another serialiser,
    /// or sent as a file part. Every recipe of `recipes/`; a refusal for missing inputs or files (422) is not a
    /// signature's.
    func testEveryRecipeSignedFromItsFileIsAcceptedHoweverItIsSpelt() async throws {
        let service = try service()
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("recipes")
        let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") && $0 != "schema.json" }.sorted()
        XCTAssertGreaterThanOrEqual(paths.count, 16)
        try await RouterClient.run(service.router()) { client in
            for path in paths {
                let file = folder.appendingPathComponent(path).path
                let canonical = String(decoding: try Recipe(contentsOfFile: file).jsonData(), as: UTF8.self)
                let signature = try XCTUnwrap(service.signer.signature(for: URLSigner.recipePayload(canonical)))
                let text = try String(contentsOfFile: file, encoding: .utf8)
                let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
                let respelt = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes]), as: UTF8.self)
                for spelling in [text, respelt, canonical] {
                    try await client.execute(uri: "/render", method: .post, headers: self.headers,
                                             body: self.form(["recipe": spelling, "signature": signature, "format": "png"], image: self.photo)) { response in
                        XCTAssertNotEqual(response.status, .forbidden, "\(path): \(String(buffer: response.body))")
                    }
                }
                var body = Data("--\(self.boundary)\r\nContent-Disposition: form-data; name=\"signature\"\r\n\r\n\(signature)\r\n".utf8)
                body += Data("--\(self.boundary)\r\nContent-Disposition: form-data; name=\"recipe\"; filename=\"r.json\"\r\nContent-Type: application/json\r\n\r\n\(text)\r\n".utf8)
                body += Data("--\(self.boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"cat.png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
                body += self.photo + Data("\r\n--\(self.boundary)--\r\n".utf8)
                try await client.execute(uri: "/render", method: .post, headers: self.headers, body: ByteBuffer(bytes: body)) { response in
                    XCTAssertNotEqual(response.status, .forbidden, "\(path) as a file part: \(String(buffer: response.body))")
                }
            }
        }
    }

    /// `count` renders of the photo posted at once, each answered 200.
    func renderAtOnce(_ count: Int, _ client: ServeClient) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await client.execute(uri: "/render", method: .post, headers: self.headers,
                                             body: self.form(["recipe": self.recipe, "format": "png"], image: self.photo)) { response in
                        XCTAssertEqual(response.status, .ok)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Renders run on kept stage threads: with as many kept as the renders at once could use together (2 × the
    /// render, its decoder, its encoder), rounds of requests at once make no thread more. Whether a render uses its
    /// decoder's and encoder's stages depends on the load when it starts (`RenderLoad`), so the pool is filled to
    /// that bound first rather than by a first round, whose renders may have overlapped less than later ones.
    func testRequestsMakeNoThreadsOnceWarm() async throws {
        let service = try service { $0.allowRecipes = true; $0.concurrency = 2; $0.maxWaiting = 64 }
        let before = StageThreads.threadsMade
        let holding = DispatchGroup(), release = DispatchSemaphore(value: 0)
        for _ in 0..<(2 * 3) {
            holding.enter()
            StageThreads.run { holding.leave(); release.wait() }
        }
        holding.wait()
        for _ in 0..<(2 * 3) { release.signal() }
        let deadline = Date().addingTimeInterval(5)
        while StageThreads.idleThreads < StageThreads.threadsMade, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        let warm = StageThreads.threadsMade
        XCTAssertLessThanOrEqual(warm - before, 2 * 3, "at most six more kept threads")
        try await RouterClient.run(service.router()) { client in
            for _ in 0..<4 { try await self.renderAtOnce(8, client) }
            XCTAssertLessThanOrEqual(StageThreads.threadsMade - warm, 1, "32 requests made no thread (one may still be settling)")
        }
    }

    /// With a render in flight for every core, each keeps to its thread (`RenderLoad.saturated`): a request starts
    /// its render's one stage, not a decoder's and an encoder's beside it. The other cores' renders are held open
    /// here (small requests alone finish too fast to overlap reliably), so every request renders under full load.
    func testRendersUnderLoadKeepToTheirThreads() async throws {
        let width = WorkerPool.width
        try XCTSkipIf(width < 2, "one core: every render is saturated")
        let service = try service { $0.allowRecipes = true; $0.concurrency = width; $0.maxWaiting = 16 * width }
        let release = DispatchSemaphore(value: 0), held = DispatchGroup(), done = DispatchGroup()
        for _ in 1..<width {
            held.enter()
            done.enter()
            DispatchQueue.global().async {
                RenderLoad.run { held.leave(); release.wait() }
                done.leave()
            }
        }
        held.wait()
        defer {
            for _ in 1..<width { release.signal() }
            done.wait()  // counted out before the next test
        }
        try await RouterClient.run(service.router()) { client in
            let requests = 6 * width
            let before = StageThreads.stagesStarted
            try await self.renderAtOnce(requests, client)
            let stages = StageThreads.stagesStarted - before
            // Fanned out, each request would start three (its render, a decoder, an encoder).
            XCTAssertGreaterThanOrEqual(stages, requests, "each request's render is a stage")
            XCTAssertLessThanOrEqual(stages, requests + 2, "\(requests) requests started \(stages) stages")
        }
    }

    func testBadRequestsAreNamed() async throws {
        let service = try service { $0.allowRecipes = true; $0.maxUploadBytes = 50_000 }
        try await RouterClient.run(service.router()) { client in
            let cases: [(HTTPFields, ByteBuffer, HTTPResponse.Status, String)] = [
                (self.headers, self.form(["recipe": #"{"version": 1, "steps": [{"op": "blur"}]}"#, "source": "chelsea_451x300_rgb8.png"]),
                 .badRequest, "steps[0].op"),
                (self.headers, self.form(["recipe": self.recipe]), .badRequest, "give one of image"),
                (self.headers, self.form(["recipe": self.recipe, "source": "../recipes/vignette.json"]), .notFound, "no source"),
                (self.headers, self.form(["recipe": self.recipe], image: self.photo), .contentTooLarge, "over 50000 bytes"),
                ([.contentType: "application/json"], ByteBuffer(string: self.recipe), .unsupportedMediaType, "multipart/form-data"),
                // A part header name with a byte over 0x7F crashed the form parser (MultipartKit 4.7.1): the server
                // would have stopped. Found by schemathesis.
                (self.headers, ByteBuffer(bytes: Array("--\(self.boundary)\r\nContent-Disposition: form-data; name=\"recipe\"\r\n".utf8)
                                          + [0xC3, 0xA9, 0x3A, 0x20, 0x78, 0x0D, 0x0A, 0x0D, 0x0A] + Array("{}\r\n--\(self.boundary)--\r\n".utf8)),
                 .badRequest, "not ASCII"),
            ]
            for (headers, body, status, text) in cases {
                try await client.execute(uri: "/render", method: .post, headers: headers, body: body) { response in
                    XCTAssertEqual(response.status, status, text)
                    XCTAssertTrue(String(buffer: response.body).contains(text), String(buffer: response.body))
                }
            }
        }
    }

    /// A decompression bomb — a small PNG that inflates to 60 megapixels of grey — is refused from its header
    /// (413) before a row is inflated, however little it weighs.
    func testADecompressionBombIsRefusedFromItsHeader() async throws {
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let bombPath = scratch.appendingPathComponent("bomb.png").path
        let bomb = PixelBuffer(width: 10_000, height: 6_000, format: .grey8)
        try bomb.mutableHostBytes().initializeMemory(as: UInt8.self, repeating: 0, count: 10_000 * 6_000)
        try PNGEncoder.encode(bomb, to: bombPath)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: bombPath))
        XCTAssertLessThan(bytes.count, 1 << 20, "60 MB of pixels in under a megabyte")
        let service = try service { $0.allowRecipes = true }
        try await RouterClient.run(service.router()) { client in
            try await client.execute(uri: "/render", method: .post, headers: self.headers,
                                     body: self.form(["recipe": self.recipe], image: bytes)) { response in
                XCTAssertEqual(response.status, .contentTooLarge, String(buffer: response.body))
                XCTAssertTrue(String(buffer: response.body).contains("10000×6000"), String(buffer: response.body))
            }
        }
    }
}
