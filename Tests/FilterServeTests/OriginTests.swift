import FilterRecipe
@testable import FilterServe
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TestSupport
import XCTest

/// Sources fetched from HTTP origins: only named origins, only public addresses unless allowed (server-side request
/// forgery), redirects kept within the origin, bodies bounded while they stream. The origin is a real server on
/// the loopback interface, which is exactly what the guard refuses by default.
final class OriginTests: XCTestCase {
    let photo = try! Data(contentsOf: URL(fileURLWithPath: Fixtures.path("photos/chelsea_451x300_rgb8.png")))

    func testOnlyPublicAddressesPass() {
        func v4(_ text: String) -> [UInt8] { text.split(separator: ".").map { UInt8($0)! } }
        func v6(_ text: String) -> [UInt8] {
            var address = in6_addr()
            XCTAssertEqual(inet_pton(AF_INET6, text, &address), 1, text)
            return withUnsafeBytes(of: &address) { Array($0) }
        }
        for blocked in ["127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
                        "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "198.18.0.1", "192.0.2.7"] {
            XCTAssertFalse(AddressPolicy.isPublic(v4(blocked)), blocked)
        }
        for blocked in ["::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "::ffff:127.0.0.1",
                        "::ffff:169.254.169.254", "64:ff9b::10.0.0.1", "2002:c0a8:0101::1", "2001:db8::1"] {
            XCTAssertFalse(AddressPolicy.isPublic(v6(blocked)), blocked)
        }
        for open in ["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "169.255.0.1"] {
            XCTAssertTrue(AddressPolicy.isPublic(v4(open)), open)
        }
        for open in ["2606:4700:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8", "64:ff9b::808:808"] {
            XCTAssertTrue(AddressPolicy.isPublic(v6(open)), open)
        }
    }

    /// An origin server on 127.0.0.1 with the cases to reach.
    func originRouter() -> Router<BasicRequestContext> {
        let router = Router()
        let photo = self.photo
        router.get("img/chelsea.png") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: photo))) }
        router.get("img/moved.png") { _, _ in Response(status: .found, headers: [.location: "/img/chelsea.png"]) }
        router.get("img/loop.png") { _, _ in Response(status: .found, headers: [.location: "/img/loop.png"]) }
        router.get("img/away.png") { _, _ in Response(status: .found, headers: [.location: "/other/chelsea.png"]) }
        router.get("other/chelsea.png") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: photo))) }
        router.get("img/big.png") { _, _ in
            Response(status: .ok, headers: [.contentLength: "900000000"], body: .init(byteBuffer: ByteBuffer(bytes: photo)))
        }
        router.get("img/slow.png") { _, _ in
            try await Task.sleep(for: .seconds(5))
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: photo)))
        }
        router.get("img/trickle.png") { _, _ in
            // A byte at a time, each well within any read timeout: only the whole fetch's deadline ends it.
            Response(status: .ok, body: ResponseBody { writer in
                for byte in photo.prefix(40) {
                    try await writer.write(ByteBuffer(bytes: [byte]))
                    try await Task.sleep(for: .milliseconds(150))
                }
                try await writer.finish(nil)
            })
        }
        router.get("img/endless.png") { _, _ in
            // No length declared: a stream that outgrows the limit.
            Response(status: .ok, body: ResponseBody { writer in
                for _ in 0..<64 { try await writer.write(ByteBuffer(repeating: 0x89, count: 64 * 1024)) }
                try await writer.finish(nil)
            })
        }
        return router
    }

    func service(origin: String, _ change: (inout ServeConfiguration) -> Void = { _ in }) throws -> RenderService {
        var settings = ServeConfiguration()
        settings.presets = Fixtures.repository.appendingPathComponent("recipes").path
        settings.sources = Fixtures.path("photos")
        settings.allowUnsigned = true
        settings.origins = ["local": origin, "meta": "http://169.254.169.254/latest/", "named": "http://localhost:9/"]
        settings.maxSourceBytes = 1 << 20
        change(&settings)
        return try RenderService(settings)
    }

    func get(_ service: RenderService, _ path: String, _ check: @escaping @Sendable (RouterResponse) throws -> Void) async throws {
        try await RouterClient.run(service.router()) { client in
            try await client.execute(uri: path, method: .get) { try check($0) }
        }
    }

    func testOriginsAreFetchedWithinTheirLimits() async throws {
        try await withLiveServer(originRouter()) { port in
            let base = "http://127.0.0.1:\(port)/img/"
            let open = try self.service(origin: base) { $0.allowPrivateOrigins = true }
            try await self.get(open, "/r/_/web-thumbnail/@local/chelsea.png?format=png") { response in
                XCTAssertEqual(response.status, .ok, String(buffer: response.body))
                XCTAssertEqual(response.headers[.contentType], "image/png")
                XCTAssertNotNil(response.headers[.eTag])
                let timing = response.headers[HTTPField.Name("Server-Timing")!] ?? ""
                XCTAssertTrue(timing.hasPrefix("fetch;desc=\"origin\";dur="), timing)
                XCTAssertTrue(timing.contains("decode;dur="), timing)
            }
            try await self.get(open, "/r/_/web-thumbnail/@local/moved.png?format=png") { response in
                XCTAssertEqual(response.status, .ok, "a redirect within the origin is followed")
            }
            let refusals: [(String, HTTPResponse.Status, String)] = [
                ("away.png", .badGateway, "outside its base"),
                ("loop.png", .badGateway, "more than 3 times"),
                ("big.png", .contentTooLarge, "over"),
                ("endless.png", .contentTooLarge, "over"),
                ("missing.png", .notFound, "has no"),
                // Decoded, the segment holds a slash: refused here, never asked of the origin.
                ("..%2Fother%2Fchelsea.png", .notFound, "no source"),
            ]
            for (name, status, words) in refusals {
                try await self.get(open, "/r/_/web-thumbnail/@local/\(name)?format=png") { response in
                    XCTAssertEqual(response.status, status, name)
                    XCTAssertTrue(String(buffer: response.body).contains(words), "\(name): \(String(buffer: response.body))")
                }
            }
            try await self.get(open, "/r/_/web-thumbnail/@nowhere/chelsea.png") { response in
                XCTAssertEqual(response.status, .notFound)
                XCTAssertTrue(String(buffer: response.body).contains("no origin named"))
            }
            // By default the same origin is refused before any connection: it is the loopback interface, and so
            // are the metadata service and a name that resolves to loopback.
            let guarded = try self.service(origin: base)
            for source in ["@local/chelsea.png", "@meta/iam.png", "@named/chelsea.png"] {
                try await self.get(guarded, "/r/_/web-thumbnail/\(source)?format=png") { response in
                    XCTAssertEqual(response.status, .forbidden, source)
                    XCTAssertTrue(String(buffer: response.body).contains("private or reserved address"), String(buffer: response.body))
                }
            }
        }
    }

    /// The whole fetch is over by the origin timeout, whether the origin answers late or trickles its body.
    func testSlowOriginsTimeOut() async throws {
        try await withLiveServer(originRouter()) { port in
            let open = try self.service(origin: "http://127.0.0.1:\(port)/img/") {
                $0.allowPrivateOrigins = true
                $0.originTimeoutSeconds = 1
            }
            for name in ["slow.png", "trickle.png"] {
                let began = ContinuousClock.now
                try await self.get(open, "/r/_/web-thumbnail/@local/\(name)?format=png") { response in
                    XCTAssertEqual(response.status, .gatewayTimeout, name)
                    XCTAssertTrue(String(buffer: response.body).contains("took longer than 1 s"), String(buffer: response.body))
                }
                XCTAssertLessThan(ContinuousClock.now - began, .seconds(3), name)
            }
        }
    }

    /// The connection goes to the address that was checked: a name that no resolver knows is reached at the address
    /// it was pinned to, so a second lookup (a rebinding resolver's) never happens. A proxy named in the
    /// environment is not taken either: it would connect somewhere else.
    func testTheCheckedAddressIsTheOneReached() async throws {
        try await withLiveServer(originRouter()) { port in
            let host = "origin.filterserve-test.invalid"
            let base = URL(string: "http://\(host):\(port)/img/")!
            let fetcher = try OriginFetcher(ServeConfiguration())
            setenv("http_proxy", "http://127.0.0.1:9", 1)
            setenv("ALL_PROXY", "http://127.0.0.1:9", 1)
            defer { unsetenv("http_proxy"); unsetenv("ALL_PROXY") }
            let answer = try await fetcher.get(base.appendingPathComponent("chelsea.png"), host: host, address: "127.0.0.1",
                                               deadline: .now + .seconds(5), origin: "test")
            guard case .body(let data) = answer else { return XCTFail("\(answer)") }
            XCTAssertEqual(data, self.photo)
            let moved = try await fetcher.get(base.appendingPathComponent("moved.png"), host: host, address: "127.0.0.1",
                                              deadline: .now + .seconds(5), origin: "test")
            guard case .redirect(let location) = moved else { return XCTFail("\(moved)") }
            XCTAssertEqual(location, "http://\(host):\(port)/img/chelsea.png", "the Location, resolved against the URL asked for")
        }
    }

    /// A request given up (its client hung up) stops its transfer: libcurl is asked at least once a second.
    func testACancelledFetchStopsItsTransfer() async throws {
        try await withLiveServer(originRouter()) { port in
            let fetcher = try OriginFetcher(ServeConfiguration())
            let url = URL(string: "http://127.0.0.1:\(port)/img/slow.png")!
            let began = ContinuousClock.now
            let fetch = Task {
                try await fetcher.get(url, host: "127.0.0.1", address: "127.0.0.1", deadline: .now + .seconds(30), origin: "test")
            }
            try await Task.sleep(for: .milliseconds(200))
            fetch.cancel()
            do {
                let answer = try await fetch.value
                XCTFail("a cancelled fetch answered \(answer)")
            } catch {
                XCTAssertTrue(error is CancellationError, "\(error)")
            }
            XCTAssertLessThan(ContinuousClock.now - began, .seconds(3), "stopped long before the origin's 5 s")
        }
    }

    func testOriginsMustBeWellFormed() {
        for bad in ["ftp://example.com/", "http:///nohost", "http://user@example.com/", "http://example.com/?q=1"] {
            XCTAssertThrowsError(try service(origin: bad), bad)
        }
    }
}
