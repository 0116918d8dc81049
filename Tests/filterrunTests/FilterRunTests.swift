import FilterCore
import Foundation
import PNGCodec
import TestSupport
import XCTest

/// filterrun end to end, as a user runs it.
final class FilterRunTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("filterrun").path
    let photo = Fixtures.path("photos/chelsea_451x300_rgb8.png")
    let recipes = Fixtures.repository.appendingPathComponent("recipes")

    @discardableResult
    func run(_ arguments: [String], environment: [String: String] = [:], executable: String = FilterRunTests.binary,
             allowValidationMessages: Bool = false, standardInput: String? = nil) throws -> (code: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let standardInput { process.standardInput = FileHandle(forReadingAtPath: standardInput) }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = String(decoding: e, as: UTF8.self)
        // Under FILTERRUN_VULKAN_VALIDATION (scripts/test.sh) the layer's messages reach the child's stderr.
        for line in stderr.split(separator: "\n") where line.hasPrefix("vulkan validation:") && !allowValidationMessages {
            XCTFail("\(arguments.joined(separator: " ")): \(line)")
        }
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), stderr)
    }

    func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// `--frames all` renders an animation piped into standard input; an animation cannot go to standard output.
    func testAnAnimationFromStandardInput() throws {
        let gif = Fixtures.path("gif/disposal_animated_48x32.gif")
        let recipe = try write("flip.json", #"{"version": 1, "steps": [{"op": "flip", "direction": "horizontal"}]}"#)
        var r = try run([recipe, "-", path("piped.webp"), "--frames", "all", "--backend", "cpu", "--stats"], standardInput: gif)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("animation: 4 frames"), r.stderr)
        r = try run([recipe, "-", "-", "--frames", "all", "--format", "webp"], standardInput: gif)
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("animations are written to a file"), r.stderr)
    }

    func testSuccessWritesOutputAndStatsJSON() throws {
        let r = try run([recipes.appendingPathComponent("vignette.json").path, photo, path("out.png"), "--backend", "cpu", "--stats=json"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(r.stderr.split(separator: "\n").last!.utf8)) as! [String: Any]
        for key in ["backend", "width", "height", "decodeSeconds", "filterSeconds", "encodeSeconds", "totalSeconds",
                    "peakResidentBytes", "uploads", "downloads", "bytesUploaded", "bytesDownloaded", "nodes"] {
            XCTAssertNotNil(json[key], key)
        }
        XCTAssertEqual(json["width"] as? Int, 451)
        XCTAssertEqual(json["backend"] as? String, "cpu")
        XCTAssertEqual((json["nodes"] as? [[String: Any]])?.count, 1, "the recipe's two per-pixel steps run fused")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("out.png")))
        let plain = try run([recipes.appendingPathComponent("vignette.json").path, photo, path("plain.png"), "--backend", "cpu",
                             "--stats=json", "--no-optimize"])
        let plainJSON = try JSONSerialization.jsonObject(with: Data(plain.stderr.split(separator: "\n").last!.utf8)) as! [String: Any]
        XCTAssertEqual((plainJSON["nodes"] as? [[String: Any]])?.count, 2, "--no-optimize runs the steps one by one")
    }

    func testRecipeErrorsExitTwoAndNameThePath() throws {
        let bad = try write("bad.json", #"{"version":1,"steps":[{"op":"gausianBlur"}]}"#)
        let r = try run([bad, photo, path("out.png")])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains(#"steps[0].op: unknown filter "gausianBlur" (did you mean "gaussianBlur"?)"#), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.png")))
        XCTAssertEqual(try run(["--no-such-flag"]).code, 2)
    }

    func testExistingOutputNeedsForceAndInputIsNeverOverwritten() throws {
        let recipe = recipes.appendingPathComponent("vignette.json").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path("out.png")))
        XCTAssertEqual(try run([recipe, photo, path("out.png")]).code, 2)
        XCTAssertEqual(try String(contentsOfFile: path("out.png"), encoding: .utf8), "keep")
        XCTAssertEqual(try run([recipe, photo, path("out.png"), "--force"]).code, 0)
        try FileManager.default.copyItem(atPath: photo, toPath: path("in.png"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path("in.png")))
        XCTAssertEqual(try run([recipe, path("in.png"), path("in.png"), "--force"]).code, 2)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("in.png"))), before)
    }

    func testCorruptInputExitsThree() throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: photo))
        bytes = bytes.prefix(bytes.count / 2)
        try bytes.write(to: URL(fileURLWithPath: path("truncated.png")))
        let r = try run([recipes.appendingPathComponent("vignette.json").path, path("truncated.png"), path("out.png")])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("truncated.png"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.contains("out") }, [])
        let notPNG = try write("text.png", "hello")
        XCTAssertEqual(try run([recipes.appendingPathComponent("vignette.json").path, notPNG, path("out.png")]).code, 3)
    }

    func testRenderAndOutputFailuresExitFour() throws {
        let recipe = recipes.appendingPathComponent("vignette.json").path
        // A directory that cannot be made (its parent is a file): exit 4, and nothing is left behind.
        try "x".write(toFile: path("file"), atomically: true, encoding: .utf8)
        let blocked = try run([recipe, photo, path("file/sub/out.png")])
        XCTAssertEqual(blocked.code, 4, blocked.stderr)
        XCTAssertTrue(blocked.stderr.contains("cannot create the directory"), blocked.stderr)
        let r = try run([recipe, photo, path("out.png"), "--backend", "vulkan"], environment: ["FILTERRUN_DEVICE": "no-such-gpu"])
        XCTAssertEqual(r.code, 4, r.stderr)
        XCTAssertTrue(r.stderr.contains("FILTERRUN_DEVICE=no-such-gpu: no Vulkan device matches"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.png")))
    }

    func testSetAndInputOptions() throws {
        let recipe = recipes.appendingPathComponent("watermark.json").path
        let logo = Fixtures.repository.appendingPathComponent("samples/emerald-logo_160x120_rgba8.png").path
        XCTAssertEqual(try run([recipe, photo, path("a.png")]).code, 2, "missing --input watermark")
        XCTAssertEqual(try run([recipe, photo, path("a.png"), "--input", "watermark=\(logo)"]).code, 0)
        XCTAssertEqual(try run([recipe, photo, path("b.png"), "--input", "watermark=\(logo)", "--set", "marked.opacity=0"]).code, 0)
        let r = try run([recipe, photo, path("c.png"), "--input", "watermark=\(logo)", "--set", "marked.opacity=7"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("--set marked.opacity: expected a number in 0...1, found 7"), r.stderr)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: path("a.png"))),
                          try Data(contentsOf: URL(fileURLWithPath: path("b.png"))))
    }

    /// Output depth and channels follow the input unless --depth says otherwise (or the recipe colours grey).
    func testDepthFollowsInputUnlessAsked() throws {
        let recipe = recipes.appendingPathComponent("grade-16bit.json").path
        let sixteen = Fixtures.path("photos/kleiber_crop_320x240_gray16.png")
        XCTAssertEqual(try run([recipe, sixteen, path("a.png")]).code, 0)
        XCTAssertEqual(try run([recipe, sixteen, path("b.png"), "--depth", "8"]).code, 0)
        XCTAssertEqual(try run([recipe, photo, path("c.png"), "--depth", "16"]).code, 0)
        XCTAssertEqual(try run([recipe, photo, path("d.png"), "--depth", "12"]).code, 2)
        func header(_ name: String) throws -> (Int, Int) {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
            return (Int(bytes[24]), Int(bytes[25]))  // IHDR bit depth and colour type
        }
        XCTAssertEqual(try header("a.png").0, 16)
        XCTAssertEqual(try header("a.png").1, 2, "a grey photo given a cooler balance has colour")
        XCTAssertEqual(try header("b.png").0, 8)
        XCTAssertEqual(try header("c.png").0, 16)
        XCTAssertEqual(try header("c.png").1, 2, "RGB stays RGB")
    }

    /// A recipe without filters copies stored rows: the output decodes to exactly the input's samples.
    func testFilterFreeRecipeIsLossless() throws {
        let identity = try write("id.json", #"{"version": 1, "steps": []}"#)
        for file in ["photos/kleiber_crop_320x240_gray16.png", "photos/emerald_crop_320x240_rgba8.png", "pngsuite/basi3p04.png"] {
            // basi3p04 declares gAMA 1.0, which is converted unless profiles are ignored.
            XCTAssertEqual(try run([identity, Fixtures.path(file), path("copy.png"), "--force", "--compression", "9",
                                    "--ignore-profiles"]).code, 0)
            XCTAssertEqual(try PixelDigest.packedBytes(PNGDecoder.decode(path: path("copy.png"))),
                           try PixelDigest.packedBytes(PNGDecoder.decode(path: Fixtures.path(file))), file)
        }
    }

    func testListPrintsOneFilterPerLine() throws {
        let r = try run(["list"])
        XCTAssertEqual(r.code, 0)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, FilterID.allCases.count)
        XCTAssertTrue(lines.contains { $0.hasPrefix("gaussianBlur sigma=2 (0.0...500.0)") }, r.stdout)
        XCTAssertEqual(try run(["list", "gausianBlur"]).code, 2)
        let json = try run(["list", "--json"])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [Any])?.count, FilterID.allCases.count)
    }

    /// A process killed while writing leaves nothing under the output name.
    func testKilledMidWriteLeavesNoOutput() throws {
        let big = try write("big.json", #"{"version":1,"steps":[{"op":"resize","scale":6},{"op":"gaussianBlur","sigma":3}]}"#)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = [big, photo, path("out.png"), "--compression", "9"]
        try process.run()
        // Wait until the temporary output exists, then kill.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !(try FileManager.default.contentsOfDirectory(atPath: scratch.path).contains { $0.hasPrefix(".out.png.") }) {
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, "the render finished before it could be killed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.png")))
    }
}
