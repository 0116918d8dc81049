import FilterCore
import Foundation
import PNGCodec
import TestSupport
import XCTest

/// The command line as its users' habits expect: optional values after a space or `=`, help and version at the
/// top, `-` for pipes in and out, names people reach for, output folders made as batches make them.
extension FilterRunTests {

    func testOptionalValuesAreTakenAfterASpaceOrAnEqualsSign() throws {
        for arguments in [["--explain", "verbose"], ["--explain=verbose"]] {
            let r = try run([vignette, photo, path("a.png"), "--backend", "cpu", "--force"] + arguments)
            XCTAssertEqual(r.code, 0, "\(arguments): \(r.stderr)")
            XCTAssertTrue(r.stdout.contains("generated kernel of #"), "\(arguments) asks for the kernels: \(r.stdout)")
        }
        // A bare --explain anywhere, even before the paths: the paths stay paths.
        for arguments in [["--explain", vignette, photo, path("b.png")], [vignette, photo, "--explain", path("b.png")]] {
            let r = try run(arguments + ["--backend", "cpu", "--force"])
            XCTAssertEqual(r.code, 0, "\(arguments): \(r.stderr)")
            XCTAssertTrue(r.stdout.contains("plan (linear working space, backend cpu)"), r.stdout)
            XCTAssertFalse(r.stdout.contains("generated kernel"), r.stdout)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("b.png")))
        for arguments in [["--stats", "json"], ["--stats=json"]] {
            let r = try run([vignette, photo, path("c.png"), "--backend", "cpu", "--force"] + arguments + ["--no-optimize"])
            XCTAssertEqual(r.code, 0, r.stderr)
            XCTAssertEqual(try statsJSON(r.stderr)["width"] as? Int, 451, "\(arguments)")
        }
        let text = try run([vignette, photo, path("d.png"), "--stats", "--backend", "cpu"])
        XCTAssertTrue(text.stderr.hasPrefix("backend cpu, 451×300 rgb8"), text.stderr)
        let bogus = try run([vignette, photo, path("e.png"), "--explain=bogus"])
        XCTAssertEqual(bogus.code, 2)
        XCTAssertTrue(bogus.stderr.contains("--explain takes plan or verbose, got \"bogus\""), bogus.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("e.png")))
    }

    func testHelpShowsTheRenderAndVersionComesFromTheBuild() throws {
        for flag in ["--help", "-h", "help"] {
            let help = try run([flag])
            XCTAssertEqual(help.code, 0, help.stderr)
            XCTAssertTrue(help.stdout.contains("USAGE: filterrun RECIPE INPUT OUTPUT [<options>]"), help.stdout)
            XCTAssertTrue(help.stdout.contains("--explain [<plan|verbose>]"), "render options at the top: \(help.stdout)")
            XCTAssertTrue(help.stdout.contains("SUBCOMMANDS:") && help.stdout.contains("  list "), help.stdout)
            // Generated from the tables the code reads: every format and every damage level is named.
            for word in ["png", "jpeg", "jpg", "webp", "none", "truncated", "error", "warning"] {
                XCTAssertTrue(help.stdout.contains(word), "\(word) missing from the help")
            }
            XCTAssertFalse(help.stdout.contains("PNGs, directories"), "the help predates JPEG input")
        }
        let version = try run(["--version"])
        XCTAssertEqual(version.code, 0, version.stderr)
        XCTAssertEqual(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines), try Self.libraryVersion())
        let completion = try run(["--generate-completion-script", "bash"])
        XCTAssertEqual(completion.code, 0, completion.stderr)
        XCTAssertTrue(completion.stdout.contains("_filterrun") && completion.stdout.contains("--explain"), completion.stdout)
        // `filterrun run …` still renders, for scripts written against it.
        XCTAssertEqual(try run(["run", vignette, photo, path("run.png"), "--backend", "cpu"]).code, 0)
    }

    func testDashIsStandardInputAndStandardOutput() throws {
        XCTAssertEqual(try run([vignette, photo, path("file.png"), "--backend", "cpu"]).code, 0)
        var r = try run(["-c", "cat \"$1\" | \"$0\" \"$2\" - - --format png --backend cpu > \"$3\"", Self.binary, photo,
                         vignette, path("piped.png")], executable: "/bin/sh")
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("piped.png"))),
                       try Data(contentsOf: URL(fileURLWithPath: path("file.png"))), "the same bytes through a pipe")
        r = try run(["-c", "\"$0\" \"$1\" \"$2\" - --format jpg --backend cpu | head -c 3 | od -An -tx1", Self.binary,
                     vignette, photo], executable: "/bin/sh")
        XCTAssertEqual(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "ff d8 ff", "JPEG bytes on stdout: \(r.stderr)")
        // Standard output has no name to tell the format by.
        r = try run([vignette, photo, "-"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("OUTPUT -: give --format png|jpeg|webp|tiff|avif|jxl|gif for standard output"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "-"))
        // `-` is one image; a list of paths comes through --inputs-from.
        try FileManager.default.createDirectory(atPath: path("dir"), withIntermediateDirectories: true)
        r = try run([vignette, "-", photo, path("dir")])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("--inputs-from"), r.stderr)
        try (photo + "\n\n").write(toFile: path("list.txt"), atomically: true, encoding: .utf8)
        r = try run([vignette, "--inputs-from", path("list.txt"), path("listed"), "--backend", "cpu", "--quiet"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("listed/chelsea_451x300_rgb8.png")))
    }

    func testFormatAndNameMustAgreeUnlessForced() throws {
        var r = try run([vignette, photo, path("out.png"), "--format", "jpeg"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("--format jpeg contradicts the output's name"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.png")))
        r = try run([vignette, photo, path("out.png"), "--format", "jpeg", "--force-format", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: path("out.png"))).read(upToCount: 3)
        XCTAssertEqual(head.map(Array.init), [0xFF, 0xD8, 0xFF], "JPEG bytes, as forced")
        r = try run([vignette, photo, path("out.jpg"), "--format", "bmp"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("The value 'bmp' is invalid for '--format <format>': give one of png, jpeg, jpg, webp, tiff, tif, avif, jxl"), r.stderr)
    }

    func testNamesPeopleReachForGetTheFilterTheyMean() throws {
        var r = try run([try write("blur.json", #"{"version":1,"steps":[{"op":"blur","sigma":2}]}"#), photo, path("o.png")])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains(#"steps[0].op: unknown filter "blur" (did you mean "gaussianBlur" or "boxBlur"?)"#), r.stderr)
        r = try run(["list", "saturation"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.hasPrefix(#"filterrun: unknown filter "saturation" (did you mean "colorControls" with its "saturation" parameter"#), r.stderr)
        XCTAssertFalse(r.stderr.contains("Usage:"), "a wrong name is not a usage error: \(r.stderr)")
        r = try run(["list", "gausianBlur"])
        XCTAssertTrue(r.stderr.contains(#"did you mean "gaussianBlur"?"#), r.stderr)
        // --set by the filter's name in a chain says which step it is, and how to name it.
        r = try run([vignette, photo, path("o.png"), "--set", "vignette.intensity=0.8"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains(#"--set vignette.intensity: no node "vignette" (the vignette is step "1"; give it "id": "vignette" in the recipe to use that name)"#), r.stderr)
        // A chain step with an id answers to it, and to its position.
        let named = try write("named.json", #"{"version":1,"steps":[{"op":"exposure","ev":0.2},{"op":"vignette","id":"vignette","intensity":0.6,"radius":0.9}]}"#)
        XCTAssertEqual(try run([named, photo, path("byid.png"), "--set", "vignette.intensity=0.8", "--backend", "cpu"]).code, 0)
        XCTAssertEqual(try run([named, photo, path("bypos.png"), "--set", "1.intensity=0.8", "--backend", "cpu"]).code, 0)
        XCTAssertEqual(try run([vignette, photo, path("plain.png"), "--set", "1.intensity=0.8", "--backend", "cpu"]).code, 0)
        let byID = try PNGDecoder.decode(path: path("byid.png")).samples()
        XCTAssertEqual(byID, try PNGDecoder.decode(path: path("bypos.png")).samples())
        XCTAssertEqual(byID, try PNGDecoder.decode(path: path("plain.png")).samples(), "an id changes nothing but the name")
        // Unknown keys in a step list the valid ones; duplicate and numeric ids are refused.
        r = try run([try write("key.json", #"{"version":1,"steps":[{"op":"exposure","filter":"x"}]}"#), photo, path("o.png")])
        XCTAssertTrue(r.stderr.contains(#"steps[0].filter: exposure has no parameter "filter""#), r.stderr)
        r = try run([try write("dup.json", #"{"version":1,"steps":[{"op":"invert","id":"a"},{"op":"invert","id":"a"},{"op":"invert","id":"3"}]}"#), photo, path("o.png")])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains(#"steps[1].id: "a" is already the id of steps[0]"#), r.stderr)
        XCTAssertTrue(r.stderr.contains(#"steps[2].id: "3" cannot name a step"#), r.stderr)
    }

    /// One rule for missing output folders: a single render makes them as a batch does, and removes them again when
    /// the render fails.
    func testMissingOutputDirectoriesAreCreatedAndRemovedOnFailure() throws {
        var r = try run([vignette, photo, path("new/deeper/out.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("new/deeper/out.png")))
        // Relative paths too, from the current directory.
        r = try run(["-c", "cd \"$0\" && \"$1\" \"$2\" \"$3\" a/b/c.png --backend cpu", scratch.path, Self.binary, vignette, photo],
                    executable: "/bin/sh")
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("a/b/c.png")))
        r = try run([vignette, path("missing.png"), path("never/out.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 3)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("never")), "no folder is left by a failed render")
    }

    /// A batch says what it passed over: a folder of formats not read never renders nothing in silence.
    func testABatchNamesTheFilesItPassedOver() throws {
        try FileManager.default.createDirectory(atPath: path("in/.hidden"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: photo, toPath: path("in/a.png"))
        for name in ["b.bmp", "notes.txt", ".DS_Store"] { FileManager.default.createFile(atPath: path("in/" + name), contents: Data("x".utf8)) }
        var r = try run([vignette, path("in"), path("out"), "--backend", "cpu", "--stats=json"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("passed over 2 files whose extension is not .png, .jpg, .jpeg, .webp, .tif, .tiff, .avif, .jxl, .heic, .heif, .hif, .gif: \(path("in"))/b.bmp, \(path("in"))/notes.txt"), r.stderr)
        XCTAssertEqual((try statsJSON(r.stderr)["passedOver"] as? [String])?.count, 2)
        try FileManager.default.removeItem(atPath: path("in/a.png"))
        r = try run([vignette, path("in"), path("out2"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 3)
        XCTAssertTrue(r.stderr.contains("no PNG, JPEG, WebP, TIFF, AVIF, JPEG XL, HEIC, GIF files (.png, .jpg, .jpeg, .webp, .tif, .tiff, .avif, .jxl, .heic, .heif, .hif, .gif) in"), r.stderr)
    }

    /// `--backend cpu` says nothing of Vulkan, in a render or in --explain.
    func testACPURenderSaysNothingOfVulkan() throws {
        let r = try run([vignette, photo, path("o.png"), "--backend", "cpu", "--explain"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertFalse(r.stdout.contains("Vulkan"), r.stdout)
        XCTAssertTrue(r.stdout.contains("backend: rendering on the CPU, as asked"), r.stdout)
    }

    /// The version the library declares (this target does not link the library, so it reads its source).
    static func libraryVersion() throws -> String {
        let source = try String(contentsOf: Fixtures.repository.appendingPathComponent("Sources/FilterRecipe/Version.swift"), encoding: .utf8)
        guard let line = source.split(separator: "\n").first(where: { $0.contains("static let current") }),
              let quoted = line.split(separator: "\"").dropFirst().first else { throw XCTSkip("no version line") }
        return String(quoted)
    }
}
