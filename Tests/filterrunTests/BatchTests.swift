import Foundation
import PNGCodec
import TestSupport
import XCTest

/// filterrun over many files: mirrored outputs, resuming, a bad file among good ones, stdin lists, cancellation,
/// and faults (unwritable output, file-size limit) that must never leave a partial output.
extension FilterRunTests {
    /// A directory of `count` small PNGs (crops of a fixture photo) plus `extra` files written as given.
    func batchInput(count: Int, extra: [String: String] = [:]) throws -> URL {
        let dir = scratch.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let source = try Data(contentsOf: URL(fileURLWithPath: photo))
        for i in 0..<count {
            try source.write(to: dir.appendingPathComponent(i % 3 == 0 ? "sub/p\(i).png" : "p\(i).png"))
        }
        for (name, text) in extra { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir
    }

    func testBatchMirrorsTheTreeReportsBadFilesAndResumes() throws {
        let input = try batchInput(count: 6, extra: ["broken.png": "not a png"])
        let out = scratch.appendingPathComponent("out").path
        let first = try run([vignette, input.path, out, "--recursive", "--backend", "cpu", "--stats=json", "--jobs", "2"])
        XCTAssertEqual(first.code, 3, "an unreadable input makes the batch exit 3: \(first.stderr)")
        XCTAssertTrue(first.stderr.contains("broken.png: not a PNG, JPEG, WebP, TIFF, AVIF, JPEG XL, HEIC or GIF file"), first.stderr)
        let json = try statsJSON(first.stderr)
        XCTAssertEqual(json["rendered"] as? Int, 6)
        XCTAssertEqual(json["failed"] as? Int, 1)
        XCTAssertEqual((json["files"] as? [[String: Any]])?.count, 7)
        for i in 0..<6 {
            let name = i % 3 == 0 ? "sub/p\(i).png" : "p\(i).png"
            let decoded = try PNGDecoder.decode(path: out + "/" + name)
            XCTAssertEqual(decoded.width, 451, name)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/broken.png"))

        // A second run skips what exists; --force redoes it.
        let again = try run([vignette, input.path, out, "--recursive", "--backend", "cpu", "--stats=json"])
        XCTAssertEqual(try statsJSON(again.stderr)["skipped"] as? Int, 6)
        let forced = try run([vignette, input.path, out, "--recursive", "--backend", "cpu", "--stats=json", "--force"])
        XCTAssertEqual(try statsJSON(forced.stderr)["rendered"] as? Int, 6)

        // Without --recursive the subdirectory is left alone.
        let flat = try run([vignette, input.path, path("flat"), "--backend", "cpu", "--stats=json"])
        XCTAssertEqual(try statsJSON(flat.stderr)["rendered"] as? Int, 4)
    }

    /// A batch under `auto` with no usable device renders on the CPU and says so once, as a single file does.
    func testBatchSaysOnceThatItFellBackToTheCPU() throws {
        let input = try batchInput(count: 4)
        let out = scratch.appendingPathComponent("out").path
        let r = try run([vignette, input.path, out, "--recursive", "--stats=json", "--jobs", "2"],
                        environment: ["FILTERRUN_DEVICE": "no-such-gpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let warnings = r.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        XCTAssertEqual(warnings.count, 1, r.stderr)
        XCTAssertTrue(warnings.first?.contains("CPU") ?? false, r.stderr)
        let files = try statsJSON(r.stderr)["files"] as? [[String: Any]] ?? []
        XCTAssertEqual(files.compactMap { $0["backend"] as? String }, Array(repeating: "cpu", count: 4))
    }

    func testBatchReadsPathsFromAListOnStandardInputAndReportsMissingFiles() throws {
        let input = try batchInput(count: 3)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = [vignette, "--inputs-from", "-", path("out"), "--backend", "cpu", "--stats=json"]
        let stdin = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardError = stderr
        try process.run()
        let list = [input.appendingPathComponent("p1.png").path, input.appendingPathComponent("gone.png").path,
                    input.appendingPathComponent("p2.png").path]
        stdin.fileHandleForWriting.write(Data((list.joined(separator: "\n") + "\n").utf8))
        try stdin.fileHandleForWriting.close()
        let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 3, text)
        XCTAssertEqual(try statsJSON(text)["rendered"] as? Int, 2)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("out/p1.png")))
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("out/p2.png")))
    }

    func testCtrlCFinishesFilesInProgressAndLeavesNoPartialOutput() throws {
        let input = try batchInput(count: 40)
        let out = scratch.appendingPathComponent("out")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = [vignette, input.path, out.path, "--recursive", "--backend", "cpu", "--jobs", "1"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Interrupt once the first outputs exist.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, ((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).count < 3 {
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let written = (FileManager.default.subpaths(atPath: out.path) ?? []).filter { $0.hasSuffix(".png") }
        XCTAssertLessThan(written.count, 40, "the batch stopped early")
        for name in written { XCTAssertNoThrow(try PNGDecoder.decode(path: out.path + "/" + name), "\(name) is complete") }
        let stray = (FileManager.default.subpaths(atPath: out.path) ?? []).filter { !$0.hasSuffix(".png") && $0 != "sub" }
        XCTAssertEqual(stray, [], "no temporary files left behind")
    }

    func testUnwritableOutputAndFileSizeLimitLeaveNothingUnderTheOutputName() throws {
        let input = try batchInput(count: 2)
        let locked = scratch.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
        if access(locked.path, W_OK) != 0 {  // root can write anywhere; the check means something only otherwise
            let r = try run([vignette, input.path, locked.path, "--backend", "cpu"])
            XCTAssertEqual(r.code, 4, r.stderr)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: locked.path), [])
        }
        // A 64 KiB file-size limit: every write of a ~400 KB output fails; nothing is left under an output name.
        let limited = Process()
        limited.executableURL = URL(fileURLWithPath: "/bin/sh")
        limited.arguments = ["-c", "ulimit -f 64; exec \"$0\" \"$@\"", Self.binary, vignette, input.path, path("full"),
                             "--backend", "cpu", "--compression", "0"]
        limited.standardError = FileHandle.nullDevice
        try limited.run()
        limited.waitUntilExit()
        XCTAssertEqual(limited.terminationStatus, 4)
        let left = (FileManager.default.subpaths(atPath: path("full")) ?? []).filter { name in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path("full") + "/" + name, isDirectory: &isDirectory)
            return !isDirectory.boolValue
        }
        XCTAssertEqual(left, [], "neither outputs nor temporary files are left")
        let before = try Data(contentsOf: input.appendingPathComponent("p1.png"))
        XCTAssertEqual(before, try Data(contentsOf: URL(fileURLWithPath: photo)), "inputs are never modified")
    }
}
