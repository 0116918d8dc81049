import FilterCore
import Foundation
import PNGCodec
import TestSupport
import XCTest

/// Hostile inputs at the command line: damaged JPEGs exit 3 with nothing written (or render with a warning under
/// --fail-on none), FIFOs never hang a batch or a single render, piped images are read by content, and integers
/// from the environment or argv never trap.
extension FilterRunTests {
    var invertRecipe: String { get throws { try write("invert.json", #"{"version":1,"steps":[{"op":"invert"}]}"#) } }

    func testDamagedJPEGsFailByDefaultAndRenderWithAWarningWhenAskedTo() throws {
        for name in ["cut-scan-eoi.jpg", "xor-scan.jpg", "no-dht.jpg", "sof-taller.jpg", "truncated-scan.jpg"] {
            let input = Fixtures.path("hostile/" + name)
            var r = try run([try invertRecipe, input, path(name + ".png"), "--backend", "cpu"])
            XCTAssertEqual(r.code, 3, "\(name): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--fail-on none"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path(name + ".png")), name)
            r = try run([try invertRecipe, input, path(name + ".png"), "--backend", "cpu", "--fail-on", "none"])
            XCTAssertEqual(r.code, 0, "\(name): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("warning: \(input):") && r.stderr.contains("decoded anyway (--fail-on none)"), r.stderr)
        }
        // Valid files of processes libjpeg does not read: exit 3, "unsupported" in the message's words, not "corrupt".
        let r = try run([try invertRecipe, Fixtures.path("hostile/precision-12.jpg"), path("p.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 3)
        XCTAssertTrue(r.stderr.contains("a 12-bit JPEG") && !r.stderr.contains("corrupt"), r.stderr)
        let bad = try run([try invertRecipe, Fixtures.path("hostile/intact.jpg"), path("x.png"), "--fail-on", "sometimes"])
        XCTAssertEqual(bad.code, 2, bad.stderr)
    }

    func testFIFOsNeverHangAndPipedImagesAreReadByContent() throws {
        // A FIFO with no writer, alone: a prompt error, no temporary left.
        XCTAssertEqual(mkfifo(path("fifo.png"), 0o644), 0)
        let began = Date()
        var r = try run([try invertRecipe, path("fifo.png"), path("out.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("no bytes arrived"), r.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(began), 20)
        XCTAssertEqual(temporaries(under: scratch), [])
        // In a batch, beside a photo: the FIFO is refused before it is opened, the photo renders.
        try FileManager.default.createDirectory(atPath: path("in"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: photo, toPath: path("in/a.png"))
        XCTAssertEqual(mkfifo(path("in/b.png"), 0o644), 0)
        r = try run([try invertRecipe, path("in"), path("out"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("b.png: is a FIFO; a batch reads regular files only"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("out/a.png")))
        XCTAssertEqual(temporaries(under: scratch), [])
        // Piped bytes, through /dev/stdin or `-`: the same pixels as the file.
        XCTAssertEqual(try run([try invertRecipe, photo, path("file.png"), "--backend", "cpu"]).code, 0)
        for (name, input) in [("dev.png", "/dev/stdin"), ("dash.png", "-")] {
            r = try run(["-c", "cat \"$1\" | \"$0\" \"$2\" \(input) \"$3\" --backend cpu", Self.binary, photo, try invertRecipe,
                         path(name)], executable: "/bin/sh")
            XCTAssertEqual(r.code, 0, "\(input): \(r.stderr)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path(name))), try Data(contentsOf: URL(fileURLWithPath: path("file.png"))), input)
        }
        // Paths on stdin are a batch with --inputs-from -; `-` itself is always one image.
        r = try run(["-c", "echo \"$1\" | \"$0\" \"$2\" --inputs-from - \"$3\" --backend cpu --quiet", Self.binary, photo,
                     try invertRecipe, path("listed")], executable: "/bin/sh")
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("listed/" + (photo as NSString).lastPathComponent)), r.stderr)
    }

    func testExtremeShardValuesAreMessagesNotTraps() throws {
        try FileManager.default.createDirectory(atPath: path("in"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: photo, toPath: path("in/a.png"))
        for (id, first) in [(String(Int.max), "-1"), (String(Int.min), "1")] {
            let r = try run([try invertRecipe, path("in"), path("out"), "--shard", "auto"],
                            environment: ["SLURM_ARRAY_TASK_ID": id, "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": first])
            XCTAssertEqual(r.code, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("--shard"), r.stderr)
        }
        let r = try run([try invertRecipe, path("in"), path("out"), "--shard", "-1/3"])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("invalid for '--shard <shard>': the shard index must be from 0 to 2") && !r.stderr.contains("Missing value"), r.stderr)
    }
}

extension FilterRunTests {
    /// A sideways photo (EXIF 5–8) is held whole once to be turned upright (orientation 7 was held twice: a
    /// transpose then a half turn), and a refusal for memory names the input's orientation, not the recipe.
    func testTurnedPhotosAreHeldOnceAndRefusalsNameTheOrientation() throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/restart_444.jpg"))))
        for orientation in 5...8 {
            let exif = Array("Exif".utf8) + [0, 0] + Exif.block(orientation: orientation)
            var turned = bytes
            turned.insert(contentsOf: [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif, at: 2)
            try Data(turned).write(to: URL(fileURLWithPath: path("o\(orientation).jpg")))
            let r = try run([try invertRecipe, path("o\(orientation).jpg"), path("o\(orientation).png"), "--explain", "--backend", "cpu"])
            XCTAssertEqual(r.code, 0, r.stderr)
            XCTAssertEqual(r.stdout.components(separatedBy: "(whole input").count - 1, 1, "orientation \(orientation): \(r.stdout)")
            // Held as the stored samples (3 bytes a pixel), not as working floats (16): at this size a strip is the
            // whole image, so the turn's input, its output and a flip's each count once, and still under one float copy.
            let held = try run([try invertRecipe, path("o\(orientation).jpg"), path("o\(orientation).png"), "--force",
                                "--backend", "cpu", "--stats=json"])
            let stats = try JSONSerialization.jsonObject(with: Data((held.stderr.split(separator: "\n").last ?? "").utf8)) as? [String: Any]
            let peak = stats?["peakIntermediateBytes"] as? Int ?? .max
            XCTAssertLessThan(peak, 163 * 109 * 16, "orientation \(orientation): \(held.stderr)")
            let refused = try run([try invertRecipe, path("o\(orientation).jpg"), path("r\(orientation).png"), "--backend", "cpu",
                                   "--max-memory", "100000"])
            XCTAssertEqual(refused.code, 3, refused.stderr)
            XCTAssertTrue(refused.stderr.contains("o\(orientation).jpg: stored turned (EXIF orientation \(orientation))")
                          && refused.stderr.contains("--no-autorotate"), refused.stderr)
        }
    }
}
