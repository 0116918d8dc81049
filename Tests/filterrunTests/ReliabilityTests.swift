import Foundation
import FilterCore
import PNGCodec
import TestSupport
import XCTest

/// Nothing lost, nothing left behind: no-clobber publishing, replacing only regular files, batch name collisions,
/// temporary files on errors and signals, and limits that are ours rather than libpng's.
extension FilterRunTests {
    var vignetteRecipe: String { recipes.appendingPathComponent("vignette.json").path }

    /// Temporary files (the documented `.NAME.filterrun-XXXXXX` pattern) anywhere under `directory`.
    func temporaries(under directory: URL) -> [String] {
        (FileManager.default.subpaths(atPath: directory.path) ?? []).filter {
            ($0 as NSString).lastPathComponent.hasPrefix(".") && $0.contains(".filterrun-")
        }
    }

    /// A recipe slow enough on the photo (about a second) to act on a render in flight.
    func slowRecipe() throws -> String {
        try write("slow.json", #"{"version":1,"steps":[{"op":"resize","scale":5},{"op":"gaussianBlur","sigma":4}]}"#)
    }

    func startProcess(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until a temporary output exists under `directory` (the render is writing).
    func waitForTemporary(under directory: URL) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if !temporaries(under: directory).isEmpty { return true }
            usleep(10_000)
        }
        return false
    }

    // MARK: Outputs

    /// Inputs that would write one output name fail, each named, and the rest of the batch renders; an output-name
    /// template (vips's `-o tn_%s`) tells them apart.
    func testBatchRefusesInputsThatMapToOneOutputName() throws {
        for dir in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: path(dir), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: photo, toPath: path("\(dir)/x.png"))
        }
        try FileManager.default.copyItem(atPath: photo, toPath: path("a/y.png"))
        let r = try run([vignetteRecipe, path("a/x.png"), path("b/x.png"), path("a/y.png"), path("out"), "--backend", "cpu"])
        XCTAssertNotEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("a/x.png") && r.stderr.contains("b/x.png") && r.stderr.contains("not rendered"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out/x.png")))
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("out/y.png")), "the other input renders")
        let named = try run([vignetteRecipe, path("a/x.png"), path("b/x.png"), path("named"), "--backend", "cpu",
                             "--output-name", "tn_%s-%n.jpg"])
        XCTAssertEqual(named.code, 0, named.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("named")).sorted(), ["tn_x-1.jpg", "tn_x-2.jpg"])
    }

    func testAFileThatAppearsDuringTheRenderIsKept() throws {
        let process = try startProcess([try slowRecipe(), photo, path("out.png"), "--backend", "cpu"])
        XCTAssertTrue(waitForTemporary(under: scratch))
        try "theirs".write(toFile: path("out.png"), atomically: false, encoding: .utf8)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 2)
        XCTAssertEqual(try String(contentsOfFile: path("out.png"), encoding: .utf8), "theirs")
        XCTAssertEqual(temporaries(under: scratch), [])
    }

    func testConcurrentRunsToOneNewPathPublishExactlyOnce() throws {
        let recipe = try slowRecipe()
        let processes = try (0..<6).map { _ in try startProcess([recipe, photo, path("out.png"), "--backend", "cpu"]) }
        for p in processes { p.waitUntilExit() }
        let codes = processes.map(\.terminationStatus).sorted()
        XCTAssertEqual(codes, [0, 2, 2, 2, 2, 2])
        XCTAssertEqual(try PNGDecoder.decode(path: path("out.png")).width, 2255)
        XCTAssertEqual(temporaries(under: scratch), [])
    }

    func testForceReplacesOnlyRegularFilesAndKeepsTheirMode() throws {
        // A FIFO (and a device where we may make one) is refused and left as it was.
        XCTAssertEqual(mkfifo(path("fifo"), 0o644), 0)
        var r = try run([vignetteRecipe, photo, path("fifo"), "--force", "--backend", "cpu"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("is a FIFO; only regular files are replaced"), r.stderr)
        var info = stat()
        XCTAssertEqual(lstat(path("fifo"), &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO)
        if mknod(path("null"), S_IFCHR | 0o666, dev_t(0x103)) == 0 {
            r = try run([vignetteRecipe, photo, path("null"), "--force", "--backend", "cpu"])
            XCTAssertEqual(r.code, 2, r.stderr)
            XCTAssertEqual(lstat(path("null"), &info), 0)
            XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR)
        }

        // A 0600 file keeps its mode, and its owner where we may set it.
        try "old".write(toFile: path("private.png"), atomically: false, encoding: .utf8)
        chmod(path("private.png"), 0o600)
        let chowned = getuid() == 0 && chown(path("private.png"), 4321, 4321) == 0
        r = try run([vignetteRecipe, photo, path("private.png"), "--force", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(stat(path("private.png"), &info), 0)
        XCTAssertEqual(info.st_mode & 0o7777, 0o600)
        if chowned { XCTAssertEqual(info.st_uid, 4321) }
        XCTAssertEqual(try PNGDecoder.decode(path: path("private.png")).width, 451)

        // A symbolic link is followed: its target is replaced and the link stays a link.
        try "old".write(toFile: path("target.png"), atomically: false, encoding: .utf8)
        XCTAssertEqual(symlink(path("target.png"), path("link.png")), 0)
        r = try run([vignetteRecipe, photo, path("link.png"), "--force", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(lstat(path("link.png"), &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK)
        XCTAssertEqual(try PNGDecoder.decode(path: path("target.png")).width, 451)
        // A dangling link is refused.
        XCTAssertEqual(symlink(path("missing.png"), path("dangling.png")), 0)
        r = try run([vignetteRecipe, photo, path("dangling.png"), "--force", "--backend", "cpu"])
        XCTAssertEqual(r.code, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("missing.png")))
        XCTAssertEqual(temporaries(under: scratch), [])
    }

    func testAnExistingDirectoryAsOutputTakesTheImageInside() throws {
        try FileManager.default.createDirectory(atPath: path("dir"), withIntermediateDirectories: true)
        let r = try run([vignetteRecipe, photo, path("dir"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try PNGDecoder.decode(path: path("dir/chelsea_451x300_rgb8.png")).width, 451)
    }

    func testOutputThatIsAnInputExitsTwoAloneAndInABatch() throws {
        try FileManager.default.createDirectory(atPath: path("in"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: photo, toPath: path("in/a.png"))
        XCTAssertEqual(try run([vignetteRecipe, path("in/a.png"), path("in/a.png"), "--force"]).code, 2)
        let batch = try run([vignetteRecipe, path("in/a.png"), path("in"), "--force", "--backend", "cpu"])
        XCTAssertEqual(batch.code, 2, batch.stderr)
        XCTAssertTrue(batch.stderr.contains("refusing to overwrite an input"), batch.stderr)
    }

    // MARK: Temporary files

    func testCorruptInputsNeverLeaveTemporaryFiles() throws {
        // The first rows decode, then the data stops: the encoder has started when the error comes.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: photo))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path("half.png")))
        let out = scratch.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        for i in 0..<200 {
            let r = try run([vignetteRecipe, path("half.png"), out.appendingPathComponent("o\(i).png").path, "--backend", "cpu"])
            XCTAssertEqual(r.code, 3)
            if i == 0 { XCTAssertTrue(r.stderr.contains("truncated: the file ends in the image data after"), r.stderr) }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), [])
    }

    func testSignalsRemoveTemporaryFiles() throws {
        for sig in [SIGTERM, SIGHUP, SIGINT] {
            let process = try startProcess([try slowRecipe(), photo, path("out\(sig).png"), "--backend", "cpu"])
            XCTAssertTrue(waitForTemporary(under: scratch))
            kill(process.processIdentifier, sig)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, "signal \(sig)")
            XCTAssertEqual(temporaries(under: scratch), [], "signal \(sig)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path("out\(sig).png")))
        }
    }

    func testBatchSignalsRemoveTemporariesAndAResumedBatchSweepsAKilledOnesLeftovers() throws {
        let input = try batchInput(count: 4)
        let out = scratch.appendingPathComponent("out")
        let recipe = try slowRecipe()
        for sig in [SIGTERM, SIGHUP] {
            let process = try startProcess([recipe, input.path, out.path, "--backend", "cpu", "--jobs", "2", "--quiet"])
            XCTAssertTrue(waitForTemporary(under: out))
            kill(process.processIdentifier, sig)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)
            XCTAssertEqual(temporaries(under: out), [], "signal \(sig)")
        }
        // kill -9 cannot be handled: the next batch removes what it left.
        let killed = try startProcess([recipe, input.path, out.path, "--backend", "cpu", "--jobs", "2", "--quiet"])
        XCTAssertTrue(waitForTemporary(under: out))
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        XCTAssertFalse(temporaries(under: out).isEmpty)
        let resumed = try run([vignetteRecipe, input.path, out.path, "--backend", "cpu"])
        XCTAssertEqual(resumed.code, 0, resumed.stderr)
        XCTAssertTrue(resumed.stderr.contains("left by an interrupted run"), resumed.stderr)
        XCTAssertEqual(temporaries(under: out), [])
    }

    func testFileSizeLimitSaysSoAndLeavesNothing() throws {
        let r = try run(["-c", "ulimit -f 20; exec \"$0\" \"$@\"", Self.binary, vignetteRecipe, photo, path("out.png"),
                         "--backend", "cpu", "--compression", "0"], executable: "/bin/sh")
        XCTAssertEqual(r.code, 4, r.stderr)
        XCTAssertTrue(r.stderr.contains("exceeds the file-size limit"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix(".") || $0 == "out.png" }, [])
    }

    // MARK: Messages and limits

    func testMessagesNameTheCauseAndThePlace() throws {
        // A directory as the recipe.
        var r = try run([scratch.path, photo, path("o.png")])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("is a directory; give a recipe file"), r.stderr)
        // A number that overflows, with its JSON path.
        r = try run([try write("big.json", #"{"version":1,"steps":[{"op":"gaussianBlur","sigma":1e400}]}"#), photo, path("o.png")])
        XCTAssertTrue(r.stderr.contains("steps[0].sigma: the number 1e400 is out of range"), r.stderr)
        // Trailing commas and other syntax errors give line and column.
        r = try run([try write("comma.json", "{\"version\":1,\n \"steps\":[{\"op\":\"invert\"},]}"), photo, path("o.png")])
        XCTAssertTrue(r.stderr.contains("line 2, column 27: a trailing comma"), r.stderr)
        // Duplicate keys.
        r = try run([try write("dup.json", #"{"version":1,"steps":[{"op":"gaussianBlur","sigma":2,"sigma":3}]}"#), photo, path("o.png")])
        XCTAssertTrue(r.stderr.contains("steps[0].sigma: duplicate key"), r.stderr)
        // A kernel value out of range names the entry, not the list's length.
        let kernel = "[" + Array(repeating: "1e30", count: 81).joined(separator: ",") + "]"
        r = try run([try write("k.json", #"{"version":1,"steps":[{"op":"convolve","kernel":"# + kernel + "}]}"), photo, path("o.png")])
        XCTAssertTrue(r.stderr.contains("steps[0].kernel[0]"), r.stderr)
        XCTAssertFalse(r.stderr.contains("found a list of 81"), r.stderr)
        // Negative and malformed numeric options.
        r = try run([vignetteRecipe, photo, path("o.png"), "--max-pixels", "-1"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("--max-pixels must be a whole number from 1"), r.stderr)
        r = try run([vignetteRecipe, photo, path("o.png"), "--jobs", "two"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("'two' is invalid for '--jobs"), r.stderr)
        // Environment variables are parsed strictly.
        for value in ["abc", "-1"] {
            r = try run([vignetteRecipe, photo, path("o.png")], environment: ["FILTERRUN_VULKAN_MEMORY_LIMIT": value])
            XCTAssertEqual(r.code, 2)
            XCTAssertTrue(r.stderr.contains("FILTERRUN_VULKAN_MEMORY_LIMIT"), r.stderr)
        }
        // So are word-valued ones.
        r = try run([vignetteRecipe, photo, path("o.png")], environment: ["FILTERRUN_SERIAL_STAGES": "sometimes"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains(#"FILTERRUN_SERIAL_STAGES="sometimes" must be "never" or "always""#), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("o.png")))
        XCTAssertEqual(try run([vignetteRecipe, photo, path("o.png")], environment: ["FILTERRUN_SERIAL_STAGES": "always"]).code, 0)
        try FileManager.default.removeItem(atPath: path("o.png"))
    }

    func testTallImagesUpToThePixelLimitDecode() throws {
        // libpng's own default refuses sides over 1 000 000 pixels; ours follow --max-pixels.
        let tall = PixelBuffer(width: 1, height: 1_100_000, format: .grey8)
        try PNGEncoder.encode(tall, to: path("tall.png"), options: PNGWriteOptions(compressionLevel: 1, filter: .none))
        let identity = try write("id.json", #"{"version":1,"steps":[{"op":"invert"}]}"#)
        let r = try run([identity, path("tall.png"), path("o.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try run([identity, path("tall.png"), path("o2.png"), "--max-pixels", "1000000"]).code, 3)
    }

    func testAbsurdWorkAndMemoryAreRefusedBeforeRendering() throws {
        let blur = try write("blur.json", #"{"version":1,"steps":[{"op":"resize","scale":8},{"op":"gaussianBlur","sigma":500}]}"#)
        var r = try run([blur, photo, path("o.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("steps[1]: this render would cost about") && r.stderr.contains("--max-work"), r.stderr)
        // An interlaced image that would need more than --max-memory decoded whole.
        r = try run([vignetteRecipe, Fixtures.path("pngsuite/basi2c16.png"), path("o.png"), "--max-memory", "1000"])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("interlaced") && r.stderr.contains("--max-memory"), r.stderr)
        // A wide graph whose strips add up.
        var nodes = [#"{"id":"n0","op":"gaussianBlur","input":"main","sigma":1}"#]
        for i in 1..<200 { nodes.append(#"{"id":"n\#(i)","op":"blend","mode":"screen","inputs":["n\#(i - 1)","main"]}"#) }
        let wide = try write("wide.json", #"{"version":1,"nodes":["# + nodes.joined(separator: ",") + #"],"output":"n199"}"#)
        r = try run([wide, photo, path("o.png"), "--max-memory", "10000000", "--no-optimize"])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("working memory"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("o.png")))
    }

    func testTextChunkFloodsAreSkipped() throws {
        // 300 zTXt chunks that each inflate to 1 MiB: skipped unread, so the image decodes as if they were absent.
        var png = try Data(contentsOf: URL(fileURLWithPath: photo))
        let compressed = try PNGChunks.zlibZeros(count: 1 << 20)
        let chunk = PNGChunks.chunk("zTXt", Array("Comment".utf8) + [0, 0] + compressed)
        png.insert(contentsOf: Array(Array(repeating: chunk, count: 300).joined()), at: 33)
        try png.write(to: URL(fileURLWithPath: path("flood.png")))
        let decoded = try PNGDecoder.decode(path: path("flood.png"))
        XCTAssertEqual(try decoded.samples(), try PNGDecoder.decode(path: photo).samples())
    }
}
