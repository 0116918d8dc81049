import FilterCore
import FilterRecipe
@testable import FilterServe
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TestSupport
import XCTest

/// filterserve's HTTP behaviour, through Hummingbird's router test client (no socket): signing, limits before work,
/// caching headers, negotiation, and errors as JSON that never show the server's folders.
final class RenderServiceTests: XCTestCase {
    let photo = "chelsea_451x300_rgb8.png"

    func service(_ change: (inout ServeConfiguration) -> Void = { _ in }) throws -> RenderService {
        try testService(keys: ["new-secret", "old-secret"], change)
    }

    func test(_ service: RenderService, _ body: @escaping @Sendable (ServeClient) async throws -> Void) async throws {
        let app = service.router()
        try await RouterClient.run(app) { client in try await body(client) }
    }

    /// The size of an encoded image, read back through the engine.
    func size(_ body: ByteBuffer) throws -> [Int] {
        let report = try Renderer(backend: .cpu).render(Recipe.chain([(.crop, [:])]), encoded: ["main": Data(buffer: body)], as: .png).report
        return [report.width, report.height]
    }

    func testOperationsEndpoints() async throws {
        try await test(try service()) { client in
            try await client.execute(uri: "/healthz", method: .get) { XCTAssertEqual($0.status, .ok) }
            try await client.execute(uri: "/readyz", method: .get) { XCTAssertEqual($0.status, .ok) }
            try await client.execute(uri: "/r/_/vignette/\(self.photo)", method: .get) { XCTAssertEqual($0.status, .forbidden) }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                XCTAssertTrue(text.contains(#"filterserve_requests_total{status="403",preset="vignette"} 1"#), text)
                XCTAssertTrue(text.contains("filterserve_queue_depth"), text)
            }
        }
    }

    func testASignedURLRendersThePreset() async throws {
        let service = try service()
        let path = try XCTUnwrap(service.signer.path(preset: "web-thumbnail", source: photo, format: "webp"))
        try await test(service) { client in
            try await client.execute(uri: path, method: .get) { response in
                XCTAssertEqual(response.status, .ok, String(buffer: response.body))
                XCTAssertEqual(response.headers[.contentType], "image/webp")
                XCTAssertEqual(response.headers[.contentLength], String(response.body.readableBytes))
                XCTAssertNil(response.headers[.vary], "the format was named: nothing to negotiate")
                XCTAssertEqual(try self.size(response.body), [400, 266])
            }
        }
    }

    /// Any change to what was signed — preset, source, format, an added parameter, the signature — is refused, and
    /// so is a key that was never configured; the previous key still works (rotation).
    func testTamperingIsRefusedAndKeysRotate() async throws {
        let service = try service()
        let signer = service.signer
        let good = try XCTUnwrap(signer.path(preset: "vignette", source: photo, format: "jpeg"))
        let signature = good.split(separator: "/")[1]
        let old = try XCTUnwrap(URLSigner(secrets: ["old-secret"]).path(preset: "vignette", source: photo, format: "jpeg"))
        let stranger = try XCTUnwrap(URLSigner(secrets: ["guess"]).path(preset: "vignette", source: photo, format: "jpeg"))
        try await test(service) { client in
            for uri in [good, old] {
                try await client.execute(uri: uri, method: .get) { XCTAssertEqual($0.status, .ok, uri) }
            }
            let tampered = [
                "/r/\(signature)/web-thumbnail/\(self.photo)?format=jpeg",
                "/r/\(signature)/vignette/coffee_600x400_rgb8.png?format=jpeg",
                "/r/\(signature)/vignette/\(self.photo)?format=png",
                "/r/\(signature)/vignette/\(self.photo)",
                "/r/\(signature.dropLast(2))AA/vignette/\(self.photo)?format=jpeg",
                stranger,
            ]
            for uri in tampered {
                try await client.execute(uri: uri, method: .get) { response in
                    XCTAssertEqual(response.status, .forbidden, uri)
                    XCTAssertEqual(response.headers[.contentType], "application/json")
                    XCTAssertTrue(String(buffer: response.body).contains("the signature does not match"), uri)
                }
            }
            // An added option changes what was signed; an unknown name is refused as a mistake.
            try await client.execute(uri: good + "&width=200", method: .get) { XCTAssertEqual($0.status, .forbidden) }
            try await client.execute(uri: good + "&colour=red", method: .get) { XCTAssertEqual($0.status, .badRequest) }
        }
    }

    /// Requests for the same bytes at once share one render (a CDN's miss storm renders once), and every answer
    /// says where its time went (Server-Timing: queue, decode, filter, encode).
    func testIdenticalRequestsShareOneRenderAndSayWhereTimeWent() async throws {
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Slow enough (a wide blur, a debug build) that the requests overlap.
        try #"{"version": 1, "steps": [{"op": "gaussianBlur", "sigma": 40}]}"#
            .write(to: scratch.appendingPathComponent("slow.json"), atomically: true, encoding: .utf8)
        let service = try service { $0.presets = scratch.path; $0.allowUnsigned = true; $0.concurrency = 4 }
        try await test(service) { client in
            let uri = "/r/_/slow/\(self.photo)?format=png"
            let bodies = try await withThrowingTaskGroup(of: (ByteBuffer, String?).self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await client.execute(uri: uri, method: .get) { response in
                            XCTAssertEqual(response.status, .ok)
                            return (response.body, response.headers[HTTPField.Name("Server-Timing")!])
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            XCTAssertEqual(Set(bodies.map { Array($0.0.readableBytesView) }).count, 1, "one image for all")
            for (_, timing) in bodies {
                let timing = try XCTUnwrap(timing)
                XCTAssertTrue(["queue;dur=", "decode;dur=", "filter;dur=", "encode;dur=", "total;dur="].allSatisfy(timing.contains), timing)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                let line = text.split(separator: "\n").first { $0.hasPrefix("filterserve_coalesced_total") }
                let shared = line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
                XCTAssertGreaterThanOrEqual(shared, 1, "requests in flight together shared a render: \(text)")
            }
        }
        let flights = await service.flights.count
        XCTAssertEqual(flights, 0, "every flight landed")
    }

    func testUnsignedURLsOnlyWhenAllowed() async throws {
        try await test(try service { $0.allowUnsigned = true }) { client in
            try await client.execute(uri: "/r/_/vignette/\(self.photo)?format=png", method: .get) { response in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(response.headers[.contentType], "image/png")
            }
        }
        XCTAssertThrowsError(try service { $0.keys = [] }, "no key and no unsigned mode: refuse to start")
    }

    /// Names outside the sources folder are not found, whether by `..`, a hidden file or a link pointing out.
    func testNoPathLeavesTheSourcesFolder() async throws {
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.copyItem(atPath: Fixtures.path("photos/\(photo)"), toPath: scratch.appendingPathComponent("cat.png").path)
        try FileManager.default.createSymbolicLink(atPath: scratch.appendingPathComponent("escape.png").path,
                                                   withDestinationPath: Fixtures.path("photos/coffee_600x400_rgb8.png"))
        let service = try service { $0.sources = scratch.path; $0.allowUnsigned = true }
        try await test(service) { client in
            try await client.execute(uri: "/r/_/vignette/cat.png?format=png", method: .get) { XCTAssertEqual($0.status, .ok) }
            for source in ["../cat.png", "escape.png", ".hidden.png", "nested/../cat.png", "%2e%2e/cat.png"] {
                try await client.execute(uri: "/r/_/vignette/\(source)?format=png", method: .get) { response in
                    XCTAssertEqual(response.status, .notFound, source)
                    XCTAssertFalse(String(buffer: response.body).contains(scratch.path), "the folder is not shown")
                }
            }
            try await client.execute(uri: "/r/_/no-such-preset/cat.png", method: .get) { XCTAssertEqual($0.status, .notFound) }
            try await client.execute(uri: "/r/_/vignete/cat.png", method: .get) { response in
                XCTAssertEqual(response.status, .notFound)
                XCTAssertTrue(String(buffer: response.body).contains(#"did you mean \"vignette\""#), String(buffer: response.body))
            }
            try await client.execute(uri: "/r/_/vignette/cat.png?format=heic", method: .get) { XCTAssertEqual($0.status, .badRequest) }
            try await client.execute(uri: "/r/_/vignette/cat.png?format=gif", method: .get) { response in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(response.headers[.contentType], "image/gif")
                XCTAssertEqual(Array(String(buffer: response.body).utf8.prefix(6)), Array("GIF89a".utf8))
            }
        }
    }

    /// A strong ETag from what was signed and the files read; If-None-Match answers 304 without rendering; HEAD
    /// gives the headers of GET without the body; without a named format, Accept decides and the answer varies.
    func testCachingHeadersAndNegotiation() async throws {
        try await test(try service { $0.allowUnsigned = true }) { client in
            let uri = "/r/_/vignette/\(self.photo)"
            let tag = try await client.execute(uri: uri, method: .get, headers: [.accept: "image/webp,*/*"]) { response in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(response.headers[.contentType], "image/webp")
                XCTAssertEqual(response.headers[.vary], "Accept")
                XCTAssertEqual(response.headers[.cacheControl], "public, max-age=86400")
                return try XCTUnwrap(response.headers[.eTag])
            }
            XCTAssertTrue(tag.hasPrefix("\"") && tag.count == 34, tag)
            try await client.execute(uri: uri, method: .get, headers: [.accept: "image/webp", .ifNoneMatch: tag]) { response in
                XCTAssertEqual(response.status, .notModified)
                XCTAssertEqual(response.body.readableBytes, 0)
            }
            try await client.execute(uri: uri, method: .get, headers: [.accept: "image/png"]) { response in
                XCTAssertEqual(response.headers[.contentType], "image/png", "the source's own format")
                XCTAssertNotEqual(response.headers[.eTag], tag, "another format, another validator")
            }
            try await client.execute(uri: uri, method: .head, headers: [.accept: "image/webp"]) { response in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(response.headers[.eTag], tag)
                XCTAssertEqual(response.body.readableBytes, 0)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                XCTAssertTrue(String(buffer: response.body).contains("filterserve_not_modified_total 1"))
            }
        }
    }

    /// Sizes, fit and quality travel in the URL, signed: the preset's first resize takes them; a changed value, a
    /// mistyped name, a size past the limit, a repeated name or a preset without a resize are refused by name.
    func testSignedURLsCarrySizeFitAndQuality() async throws {
        let service = try service()
        func signed(_ options: RenderURLOptions) throws -> String {
            try XCTUnwrap(service.signer.path(preset: "web-thumbnail", source: photo, options: options))
        }
        let small = try signed(RenderURLOptions(format: "jpeg", width: 200, quality: 90))
        let low = try signed(RenderURLOptions(format: "jpeg", width: 200, quality: 20))
        let covered = try signed(RenderURLOptions(format: "png", width: 120, height: 120, fit: "cover"))
        XCTAssertTrue(small.hasSuffix("?format=jpeg&width=200&quality=90"), small)
        try await test(service) { client in
            let high = try await client.execute(uri: small, method: .get) { response in
                XCTAssertEqual(response.status, .ok, String(buffer: response.body))
                XCTAssertEqual(try self.size(response.body), [200, 133])
                return response.body.readableBytes
            }
            try await client.execute(uri: low, method: .get) { response in
                XCTAssertEqual(try self.size(response.body), [200, 133])
                XCTAssertLessThan(response.body.readableBytes, high)
            }
            try await client.execute(uri: covered, method: .get) { XCTAssertEqual(try self.size($0.body), [120, 120]) }
            // Another width under the same signature is refused; the same values in another order verify.
            try await client.execute(uri: small.replacingOccurrences(of: "width=200", with: "width=300"), method: .get) {
                XCTAssertEqual($0.status, .forbidden)
            }
            let path = small.split(separator: "?")[0]
            try await client.execute(uri: "\(path)?quality=90&width=200&format=jpeg", method: .get) { XCTAssertEqual($0.status, .ok) }
        }
        try await test(try self.service { $0.allowUnsigned = true; $0.maxURLSize = 1000 }) { client in
            let refusals = [
                ("/r/_/web-thumbnail/\(self.photo)?widht=200", "did you mean"),
                ("/r/_/web-thumbnail/\(self.photo)?width=5000", "from 1 to 1000"),
                ("/r/_/web-thumbnail/\(self.photo)?width=2.5", "whole number"),
                ("/r/_/web-thumbnail/\(self.photo)?quality=0", "from 1 to 100"),
                ("/r/_/web-thumbnail/\(self.photo)?width=100&fit=covr", "did you mean"),
                ("/r/_/web-thumbnail/\(self.photo)?width=200&width=300", "given twice"),
                ("/r/_/vignette/\(self.photo)?width=200", "no resize step"),
                ("/r/_/web-thumbnail/\(self.photo)?width=401", "at most 400 px in width"),
            ]
            for (uri, message) in refusals {
                try await client.execute(uri: uri, method: .get) { response in
                    XCTAssertEqual(response.status, .badRequest, uri)
                    XCTAssertTrue(String(buffer: response.body).contains(message), "\(uri): \(String(buffer: response.body))")
                }
            }
        }
        // filterserve sign checks what it signs the same way.
        XCTAssertThrowsError(try RenderService.checkSignable(preset: "vignette", options: RenderURLOptions(width: 200),
                                                             presets: Fixtures.repository.appendingPathComponent("recipes").path))
        XCTAssertNoThrow(try RenderService.checkSignable(preset: "web-thumbnail", options: RenderURLOptions(width: 200, height: 200, fit: "cover"),
                                                         presets: Fixtures.repository.appendingPathComponent("recipes").path))
    }

    /// With --result-cache, an answer asked for again is read back from disk, by a later server too (a restart);
    /// the folder stays within its size, least recently used answers going first, and holds no temporaries.
    func testTheResultCacheAnswersAgainAndStaysWithinItsSize() async throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try service { $0.allowUnsigned = true; $0.resultCache = folder.path }
        let uri = "/r/_/web-thumbnail/\(photo)?format=png"
        final class Box: @unchecked Sendable { var data = Data() }
        let box = Box()
        try await test(first) { client in
            box.data = try await client.execute(uri: uri, method: .get) { Data(buffer: $0.body) }
            try await client.execute(uri: uri, method: .get) { response in
                XCTAssertEqual(Data(buffer: response.body), box.data)
                XCTAssertEqual(response.headers[HTTPField.Name("Server-Timing")!], "cache;desc=\"result cache\"")
            }
        }
        let bytes = box.data
        XCTAssertFalse(bytes.isEmpty)
        XCTAssertEqual(first.results?.hits, 1)
        // A new server on the same folder answers from it at once.
        let second = try service { $0.allowUnsigned = true; $0.resultCache = folder.path }
        try await test(second) { client in
            try await client.execute(uri: uri, method: .get) { XCTAssertEqual(Data(buffer: $0.body), bytes) }
            try await client.execute(uri: "/metrics", method: .get) { response in
                XCTAssertTrue(String(buffer: response.body).contains("filterserve_result_cache_hits_total 1"))
            }
        }
        // Bounded: room for about one answer keeps the newest one.
        let small = try service { $0.allowUnsigned = true; $0.resultCache = folder.path; $0.resultCacheBytes = bytes.count + 100 }
        try await test(small) { client in
            try await client.execute(uri: "/r/_/web-thumbnail/emerald_crop_320x240_rgba8.png?format=png", method: .get) {
                XCTAssertEqual($0.status, .ok)
            }
        }
        XCTAssertLessThanOrEqual(try XCTUnwrap(small.results).bytes, bytes.count + 100)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(left.count, 1, "\(left)")
        XCTAssertFalse(left.contains { $0.hasPrefix(".") }, "no temporary is left")
        XCTAssertThrowsError(try service { $0.resultCache = folder.path; $0.resultCacheBytes = 0; $0.allowUnsigned = true })
    }

    /// Presets in subfolders (two levels) are named `group:name`; a mistyped one gets the nearest name, and no
    /// spelling reaches outside the presets folder.
    func testPresetsInSubfolders() async throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("social/wide"), withIntermediateDirectories: true)
        try Data(#"{"version":1,"steps":[{"op":"resize","width":40}]}"#.utf8).write(to: folder.appendingPathComponent("social/square.json"))
        try Data(#"{"version":1,"steps":[{"op":"resize","width":60}]}"#.utf8).write(to: folder.appendingPathComponent("social/wide/banner.json"))
        try Data(#"{"version":1,"steps":[]}"#.utf8).write(to: folder.appendingPathComponent("plain.json"))
        let service = try service { $0.allowUnsigned = true; $0.presets = folder.path }
        XCTAssertEqual(service.presets.presetNames, ["plain", "social:square", "social:wide:banner"])
        let signed = try XCTUnwrap(try self.service { $0.presets = folder.path }.signer.path(preset: "social:square", source: photo, format: "png"))
        try await test(service) { client in
            try await client.execute(uri: "/r/_/social:square/\(self.photo)?format=png", method: .get) {
                XCTAssertEqual(try self.size($0.body), [40, 27])
            }
            try await client.execute(uri: "/r/_/social:wide:banner/\(self.photo)?format=png", method: .get) {
                XCTAssertEqual(try self.size($0.body), [60, 40])
            }
            try await client.execute(uri: "/r/_/social:sqare/\(self.photo)", method: .get) { response in
                XCTAssertEqual(response.status, .notFound)
                XCTAssertTrue(String(buffer: response.body).contains("social:square"), String(buffer: response.body))
            }
            for bad in ["social:", ":square", "social:..:plain", "a:b:c:d"] {
                try await client.execute(uri: "/r/_/\(bad)/\(self.photo)", method: .get) { XCTAssertEqual($0.status, .notFound, bad) }
            }
        }
        let keyed = try self.service { $0.presets = folder.path }
        try await test(keyed) { client in
            try await client.execute(uri: signed, method: .get) { XCTAssertEqual($0.status, .ok, signed) }
        }
        XCTAssertNoThrow(try RenderService.checkSignable(preset: "social:wide:banner", options: RenderURLOptions(width: 30),
                                                         presets: folder.path))
    }

    /// A preset is parsed once and served from memory while its file is unchanged; an edited preset is read again
    /// on the next request (a new ETag, the new size), with no restart.
    func testPresetsAreParsedOnceAndReadAgainWhenEdited() async throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let preset = folder.appendingPathComponent("small.json")
        try Data(#"{"version":1,"steps":[{"op":"resize","width":40}]}"#.utf8).write(to: preset)
        let service = try service { $0.allowUnsigned = true; $0.presets = folder.path }
        try await test(service) { client in
            let uri = "/r/_/small/\(self.photo)?format=png"
            let first = try await client.execute(uri: uri, method: .get) { response in
                XCTAssertEqual(try self.size(response.body), [40, 27])
                return response.headers[.eTag]
            }
            try await client.execute(uri: uri, method: .get) { XCTAssertEqual(try self.size($0.body), [40, 27]) }
            XCTAssertEqual(service.presetCache.parses, 1, "an unchanged preset is parsed once")
            // Edited (another size, so the file's validator changes even within one clock tick).
            try Data(#"{"version":1,"steps":[{"op":"resize","width":60}]} "#.utf8).write(to: preset)
            try await client.execute(uri: uri, method: .get) { response in
                XCTAssertEqual(try self.size(response.body), [60, 40])
                XCTAssertNotEqual(response.headers[.eTag], first)
            }
            XCTAssertEqual(service.presetCache.parses, 2)
        }
    }

    /// Accept's qualities choose among the negotiated formats; ties go to the server's order; wildcards and q=0
    /// choose none of them.
    func testAcceptQualitiesChooseTheFormat() throws {
        let service = try service { $0.allowUnsigned = true }
        let cases: [(String, ImageFileFormat)] = [
            ("image/avif,image/webp,*/*", .webp), ("image/avif,image/webp;q=0.9", .avif), ("image/webp;q=0, image/avif;q=0.2", .avif),
            ("image/webp;q=0", .png), ("image/*,*/*;q=0.8", .png), ("", .png), ("IMAGE/WEBP ; Q=0.5", .webp),
        ]
        for (accept, expected) in cases {
            XCTAssertEqual(try service.outputFormat(nil, accept: accept, fallback: .png).0, expected, accept)
        }
        let avifFirst = try self.service { $0.allowUnsigned = true; $0.negotiated = [.avif, .webp] }
        XCTAssertEqual(try avifFirst.outputFormat(nil, accept: "image/avif,image/webp", fallback: .png).0, .avif)
    }

    /// A source over the pixel limit is refused from its header (413), and the message names it by its URL path.
    func testOversizedSourcesAreRefusedBeforeDecoding() async throws {
        try await test(try service { $0.allowUnsigned = true; $0.maxPixels = 10_000 }) { client in
            try await client.execute(uri: "/r/_/vignette/\(self.photo)?format=png", method: .get) { response in
                let text = String(buffer: response.body)
                XCTAssertEqual(response.status, .contentTooLarge, text)
                XCTAssertTrue(text.contains(self.photo), text)
                XCTAssertFalse(text.contains(Fixtures.path("photos")), text)
            }
        }
    }

    /// One slot and no room to wait: a second render is turned away at once.
    func testTheQueueTurnsAwayWhatItCannotHold() async throws {
        let queue = RenderQueue(slots: 1, maxWaiting: 0)
        let first = try await queue.enter()
        let second = try await queue.enter()
        XCTAssertTrue(first)
        XCTAssertFalse(second)
        let saturated = await queue.isSaturated
        XCTAssertTrue(saturated)
        await queue.leave()
        let again = try await queue.enter()
        XCTAssertTrue(again)
    }

    /// A request waiting for a slot whose client goes away (its task cancelled) leaves the line at once, and the
    /// line moves on without it.
    func testAWaitingRequestThatIsCancelledLeavesTheLine() async throws {
        let queue = RenderQueue(slots: 1, maxWaiting: 2)
        let first = try await queue.enter()
        XCTAssertTrue(first)
        let waiter = Task { try await queue.enter() }
        while await queue.depth < 2 { await Task.yield() }
        waiter.cancel()
        do {
            _ = try await waiter.value
            XCTFail("a cancelled wait should throw")
        } catch is CancellationError {}
        let depth = await queue.depth
        XCTAssertEqual(depth, 1, "only the running render is left")
        await queue.leave()
        let next = try await queue.enter()
        XCTAssertTrue(next, "the slot is free again")
    }
}

extension Logger {
    /// The tests' servers log warnings and errors only: the access log's line a request is noise in test output.
    static var quiet: Logger {
        var logger = Logger(label: "filterserve-test")
        logger.logLevel = .warning
        return logger
    }
}
