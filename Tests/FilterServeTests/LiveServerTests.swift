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

    static let recipes = Fixtures.repository.appendingPathComponent("recipes").path
    static let samples = Fixtures.repository.appendingPathComponent("samples").path

    /// filterserve started on a free port with `arguments` and `environment` added to this process's, once it answers
    /// /healthz (within `seconds`); its standard error goes to `standardError` (discarded by default).
    func startServer(_ arguments: [String], environment: [String: String] = [:], standardError: FileHandle = .nullDevice,
                     seconds: Int = 10) throws -> (process: Process, port: Int, base: String) {
        let port = try freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["--port", String(port)] + arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = standardError
        try process.run()
        let base = "http://127.0.0.1:\(port)"
        var ready = false
        for _ in 0..<(seconds * 10) where !ready {
            ready = get(base + "/healthz")?.status == 200
            if !ready { Thread.sleep(forTimeInterval: 0.1) }
        }
        XCTAssertTrue(ready, "the server answers /healthz within \(seconds) s")
        return (process, port, base)
    }

    /// A test tool run to its end: its exit status and its output (standard output and error together).
    func tool(_ path: String, _ arguments: [String], environment extra: [String: String] = [:]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// `--backend auto` prices the presets at 12 MP when the server starts and opens the device then when one is
    /// cheaper there (a recorded profile where the device costs nothing), and keeps it closed when none is (lavapipe's
    /// profile); requests render either way.
    func testAutoOpensTheDeviceAtStartOnlyWhenAPresetPaysForIt() throws {
        for (profile, expected) in [("device-preferred", "device opened at start; at 4000×3000 it renders"),
                                    ("lavapipe-epyc-2core", "no preset is cheaper on the device")] {
            let log = Fixtures.temporaryDirectory().appendingPathComponent("stderr.txt")
            FileManager.default.createFile(atPath: log.path, contents: nil)
            let (process, _, base) = try startServer(
                ["--allow-unsigned", "--presets", Self.recipes, "--sources", Fixtures.path("photos"), "--backend", "auto"],
                environment: ["FILTERRUN_DEVICE": "llvmpipe",
                              "FILTERRUN_DEVICE_PROFILE": Fixtures.path("device-profiles/\(profile).json")],
                standardError: try FileHandle(forWritingTo: log), seconds: 20)
            defer { if process.isRunning { process.terminate() } }
            XCTAssertEqual(get(base + "/r/_/web-thumbnail/chelsea_451x300_rgb8.png", accept: "image/webp")?.status, 200)
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            let text = try String(contentsOf: log, encoding: .utf8)
            if text.contains("did not open") || text.contains("no device renders here") { throw XCTSkip("no Vulkan device: \(text)") }
            XCTAssertTrue(text.contains(expected), "\(profile): \(text)")
        }
    }

    func testStartsRendersAndStopsCleanlyOnSIGTERM() throws {
        let (process, _, base) = try startServer(["--allow-unsigned", "--presets", Self.recipes, "--sources",
                                                  Fixtures.path("photos")])
        defer { if process.isRunning { process.terminate() } }
        let image = get(base + "/r/_/web-thumbnail/chelsea_451x300_rgb8.png", accept: "image/webp")
        XCTAssertEqual(image?.status, 200)
        XCTAssertEqual(image?.type, "image/webp")
        XCTAssertGreaterThan(image?.bytes ?? 0, 1000)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0, "SIGTERM drains and exits cleanly")
    }

    /// A client that hangs up mid-render stops the render: the server counts the request abandoned long before the
    /// render could have finished, and answers the next request.
    func testAClientThatHangsUpStopsItsRender() throws {
        let presets = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: presets) }
        // Seconds of work on a small photo: enlarged 8×, zoom-blurred along 100 % of the way to the centre.
        try Data(#"{"version": 1, "steps": [{"op": "resize", "scale": 8}, {"op": "zoomBlur", "amount": 100}, {"op": "resize", "scale": 0.125}]}"#.utf8)
            .write(to: presets.appendingPathComponent("slow.json"))
        let (process, port, base) = try startServer(["--allow-unsigned", "--presets", presets.path, "--sources",
                                                     Fixtures.path("photos"), "--deadline", "120"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        XCTAssertTrue(connected)
        let request = "GET /r/_/slow/chelsea_451x300_rgb8.png?format=png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        Thread.sleep(forTimeInterval: 0.5)
        close(fd)
        let began = Date()
        var abandoned = false
        while !abandoned && Date().timeIntervalSince(began) < 15 {
            Thread.sleep(forTimeInterval: 0.2)
            var request = URLRequest(url: URL(string: base + "/metrics")!)
            request.timeoutInterval = 5
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var text = ""
            URLSession.shared.dataTask(with: request) { data, _, _ in
                text = data.map { String(decoding: $0, as: UTF8.self) } ?? ""
                done.signal()
            }.resume()
            done.wait()
            abandoned = text.split(separator: "\n").contains { $0.hasPrefix("filterserve_abandoned_total") && $0.hasSuffix(" 1") }
        }
        XCTAssertTrue(abandoned, "the render was stopped when its client hung up")
        XCTAssertEqual(get(base + "/healthz")?.status, 200)
    }

    /// The running server keeps docs/openapi.yaml: schemathesis (PyPI, installed by scripts/test.sh into
    /// .build/test-venv) generates requests from it — valid, invalid and every method the document leaves out — and
    /// checks each answer's status, content type, headers and JSON against it, and that none is a server error.
    /// (Left out: positive_data_acceptance, since a recipe valid by its schema may still be refused for the image it
    /// meets.) It found a parser crash in the form decoder (see MultipartGuard).
    func testTheServerKeepsItsOpenAPIDocument() throws {
        let schemathesis = Fixtures.repository.appendingPathComponent(".build/test-venv/bin/schemathesis").path
        guard FileManager.default.isExecutableFile(atPath: schemathesis) else {
            throw XCTSkip("schemathesis is not installed (scripts/test.sh installs it into .build/test-venv)")
        }
        let (server, _, base) = try startServer(["--allow-unsigned", "--allow-recipes", "--playground", "--presets",
                                                 Self.recipes, "--sources", Self.samples])
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        let (status, text) = try tool(schemathesis, [
            "run", Fixtures.repository.appendingPathComponent("docs/openapi.yaml").path, "--url", base,
            "--checks", "all", "--exclude-checks", "positive_data_acceptance", "--max-examples", "150",
            "--seed", "20261126", "--workers", "2", "--no-color"], environment: ["SCHEMATHESIS_TELEMETRY": "false"])
        XCTAssertEqual(status, 0, String(text.suffix(6000)))
        XCTAssertTrue(server.isRunning, "the server survived every generated request")
    }

    /// A slow client cannot hold the server: an upload trickled a byte at a time is answered 408 when its time is
    /// up and its connection closed; a connection that sends nothing is closed when idle.
    func testSlowClientsAreCutOff() throws {
        let (server, port, base) = try startServer(["--allow-unsigned", "--allow-recipes", "--upload-timeout", "1",
                                                    "--idle-timeout", "2", "--presets", Self.recipes, "--sources", Self.samples])
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }

        func connected() -> Int32 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            return fd
        }
        /// What the server sends within `seconds`, and whether it closed the connection.
        func read(_ fd: Int32, for seconds: Double, trickling: Bool) -> (text: String, closed: Bool) {
            var received = [UInt8](), buffer = [UInt8](repeating: 0, count: 4096)
            let began = Date()
            while Date().timeIntervalSince(began) < seconds {
                if trickling { _ = send(fd, "x", 1, Int32(MSG_NOSIGNAL)) }
                let n = recv(fd, &buffer, buffer.count, 0)
                if n == 0 { return (String(decoding: received, as: UTF8.self), true) }
                if n > 0 { received += buffer[0..<n] }
            }
            return (String(decoding: received, as: UTF8.self), false)
        }

        let trickler = connected()
        defer { close(trickler) }
        let head = "POST /render HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\n"
            + "Content-Length: 100000\r\n\r\n"
        _ = head.withCString { send(trickler, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        let trickled = read(trickler, for: 6, trickling: true)
        XCTAssertTrue(trickled.text.hasPrefix("HTTP/1.1 408"), trickled.text)
        XCTAssertTrue(trickled.closed, "the connection is closed after the 408")

        let silent = connected()
        defer { close(silent) }
        XCTAssertTrue(read(silent, for: 6, trickling: false).closed, "an idle connection is closed")
        XCTAssertEqual(get(base + "/healthz")?.status, 200)
    }

    /// The playground in a real browser: chromium (Debian) driven by Selenium (PyPI) through
    /// scripts/playground-browser-test.py loads the page, moves the last slider, and sees the preview change with the
    /// re-render taking the unchanged nodes from the preview session's cache (the statistics the server sent).
    func testThePlaygroundWorksInABrowser() throws {
        let python = Fixtures.repository.appendingPathComponent(".build/test-venv/bin/python").path
        let selenium = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.repository.appendingPathComponent(".build/test-venv/lib").path))?
            .contains { FileManager.default.fileExists(atPath: Fixtures.repository.appendingPathComponent(".build/test-venv/lib/\($0)/site-packages/selenium").path) } ?? false
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), selenium else {
            throw XCTSkip("needs chromium, chromium-driver and selenium (scripts/test.sh installs them)")
        }
        let (server, _, base) = try startServer(["--allow-unsigned", "--playground", "--key", "playground-test",
                                                 "--presets", Self.recipes, "--sources", Self.samples])
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        let (status, text) = try tool(python, [Fixtures.repository.appendingPathComponent("scripts/playground-browser-test.py").path, base])
        XCTAssertEqual(status, 0, text)
        XCTAssertTrue(text.contains("\"previewChanged\": true"), text)
    }
}
