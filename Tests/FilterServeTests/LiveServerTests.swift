import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// The `filterserve` executable as an operator runs it: started by the test on a free port, asked for a render
/// over a real socket, then stopped with SIGTERM, which it answers by draining and exiting 0.
final class LiveServerTests: XCTestCase {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("filterserve").path

    /// A port nothing listens on (bound, read, released).
    func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        XCTAssertTrue(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    func get(_ url: String, accept: String? = nil) -> (status: Int, type: String?, bytes: Int)? {
        var request = URLRequest(url: URL(string: url)!)
        request.timeoutInterval = 20
        if let accept { request.setValue(accept, forHTTPHeaderField: "Accept") }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: (Int, String?, Int)?
        URLSession.shared.dataTask(with: request) { data, response, _ in
            if let http = response as? HTTPURLResponse {
                result = (http.statusCode, http.value(forHTTPHeaderField: "Content-Type"), data?.count ?? 0)
            }
            done.signal()
        }.resume()
        done.wait()
        return result
    }

    func testStartsRendersAndStopsCleanlyOnSIGTERM() throws {
        let port = try freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["--port", String(port), "--allow-unsigned",
                             "--presets", Fixtures.repository.appendingPathComponent("recipes").path,
                             "--sources", Fixtures.path("photos")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let base = "http://127.0.0.1:\(port)"
        var ready = false
        for _ in 0..<100 where !ready {
            ready = get(base + "/healthz")?.status == 200
            if !ready { Thread.sleep(forTimeInterval: 0.1) }
        }
        XCTAssertTrue(ready, "the server answers /healthz within 10 s")
        let image = get(base + "/r/_/web-thumbnail/chelsea_451x300_rgb8.png", accept: "image/webp")
        XCTAssertEqual(image?.status, 200)
        XCTAssertEqual(image?.type, "image/webp")
        XCTAssertGreaterThan(image?.bytes ?? 0, 1000)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0, "SIGTERM drains and exits cleanly")
    }
}
