import FilterCore
import FilterRecipe
import Foundation
import PNGCodec
import TestSupport
import XCTest

/// `lut`: .cube tables read as the Adobe Cube LUT Specification 1.0 defines them (the float64 reference at every
/// swept parameter set is in FilterReferenceTests, CPU against Vulkan in CrossBackendTests); here the file format,
/// paths, identities, and agreement with ffmpeg's lut3d.
final class LUTTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    func identityCube(_ n: Int) -> String {
        var text = "LUT_3D_SIZE \(n)\n"
        for b in 0..<n { for g in 0..<n { for r in 0..<n {
            text += "\(Double(r) / Double(n - 1)) \(Double(g) / Double(n - 1)) \(Double(b) / Double(n - 1))\n"
        } } }
        return text
    }

    func write(_ text: String, _ name: String) throws -> String {
        let path = scratch.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// An identity table changes nothing (to the rounding of 8-bit codes), at every size, both interpolations and
    /// both working spaces.
    func testIdentityTablesChangeNothing() throws {
        let image = try TestImages.crop("photos/chelsea_451x300_rgb8.png", x: 100, y: 60, width: 64, height: 40)
        for n in [2, 5, 17] {
            let path = try write(identityCube(n), "identity\(n).cube")
            for interpolation in ["tetrahedral", "trilinear"] {
                for space in [WorkingSpace.linear, .srgb] {
                    let recipe = Recipe.chain([(.lut, ["path": .string(path), "interpolation": .string(interpolation)])],
                                              workingSpace: space)
                    let out = try Renderer(backend: .cpu).render(recipe, images: ["main": image])
                    let d = Difference.between(try image.samples(), try out.samples(), width: 64, channels: 3)
                    XCTAssertLessThanOrEqual(d.worst, 1, "\(n)³ \(interpolation) \(space): \(d)")
                }
            }
        }
    }

    /// Malformed files are refused with the line and the cause, and name the step.
    func testMalformedFilesNameTheLine() throws {
        let cases: [(String, String)] = [
            ("LUT_3D_SIZE 2\n0 0 0\n1 0 0\n", "holds 2 entries where its size declares 8"),
            ("LUT_3D_SIZE 99\n", "LUT_3D_SIZE 99 is outside 2...65"),
            ("0 0 0\n", "line 1: an entry before LUT_3D_SIZE or LUT_1D_SIZE"),
            ("TITLE \"x\"\n", "declares neither LUT_3D_SIZE nor LUT_1D_SIZE"),
            ("LUT_3D_SIZE 2\nLUT_1D_SIZE 4\n", "declares both"),
            ("LUT_1D_SIZE 2\n0 0 zero\n1 1 1\n", "line 2: \"zero\" is not a number"),
            ("LUT_1D_SIZE 2\nDOMAIN_MIN 1 0 0\nDOMAIN_MAX 0 1 1\n0 0 0\n1 1 1\n", "DOMAIN_MIN must be below DOMAIN_MAX"),
            ("LUT_1D_SIZE 2\nFOO bar\n", "line 2: \"FOO bar\" is neither a keyword nor three numbers"),
        ]
        let image = TestImages.synthetic(width: 4, height: 3)
        for (k, (text, expected)) in cases.enumerated() {
            let path = try write(text, "bad\(k).cube")
            let recipe = Recipe.chain([(.lut, ["path": .string(path)])])
            XCTAssertThrowsError(try Renderer(backend: .cpu).render(recipe, images: ["main": image])) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains(expected) && message.contains("steps[0]") && message.contains("bad\(k).cube"),
                              "\(text): \(message)")
            }
        }
        let missing = Recipe.chain([(.lut, ["path": "no-such.cube"])])
        XCTAssertThrowsError(try Renderer(backend: .cpu).render(missing, images: ["main": image])) { error in
            XCTAssertTrue("\(error)".contains("no-such.cube") && "\(error)".contains("No such file"), "\(error)")
        }
        XCTAssertThrowsError(try Recipe(json: Data(#"{"version": 1, "steps": [{"op": "lut"}]}"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("give the path of a .cube file or Hald CLUT PNG"), "\(error)")
        }
        XCTAssertThrowsError(try Recipe(json: Data(#"{"version": 1, "steps": [{"op": "lut", "path": "look.tiff"}]}"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("the path of a .cube or .png file"), "\(error)")
        }
    }

    /// A relative path is read from the recipe file's folder, wherever the command runs.
    func testRelativePathsAreResolvedAgainstTheRecipe() throws {
        let folder = scratch.appendingPathComponent("looks")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try identityCube(3).write(to: folder.appendingPathComponent("same.cube"), atomically: true, encoding: .utf8)
        let recipePath = folder.appendingPathComponent("same.json").path
        try #"{"version": 1, "steps": [{"op": "lut", "path": "same.cube"}]}"#.write(toFile: recipePath, atomically: true, encoding: .utf8)
        let recipe = try Recipe(contentsOfFile: recipePath)
        let image = TestImages.synthetic(width: 5, height: 4)
        let out = try Renderer(backend: .cpu).render(recipe, images: ["main": image])
        XCTAssertEqual([out.width, out.height], [5, 4])
    }

    /// ffmpeg's lut3d (an independent implementation) gives the same pixels within 1 code for the shipped looks,
    /// both interpolations, on a real photo in the sRGB working space (where both read the 8-bit codes as they are).
    func testShippedLooksMatchFFmpeg() throws {
        let ffmpeg = try ffmpeg()
        let photo = Fixtures.path("photos/chelsea_451x300_rgb8.png")
        for look in ["warm-film", "teal-orange", "bleach-bypass"] {
            let cube = Fixtures.repository.appendingPathComponent("recipes/looks/\(look).cube").path
            for interpolation in ["tetrahedral", "trilinear"] {
                let theirs = scratch.appendingPathComponent("\(look)-\(interpolation)-ffmpeg.png").path
                try run(ffmpeg, ["-loglevel", "error", "-y", "-i", photo, "-vf", "lut3d=file=\(cube):interp=\(interpolation)",
                                 "-pix_fmt", "rgb24", theirs])
                let recipe = Recipe.chain([(.lut, ["path": .string(cube), "interpolation": .string(interpolation)])],
                                          workingSpace: .srgb)
                for backend in [Backend.cpu, .vulkan] {
                    let ours = try Renderer(backend: backend).render(recipe, images: ["main": try TestImages.decode(path: photo)])
                    let expected = try PNGDecoder.decode(path: theirs)
                    let d = Difference.between(try expected.samples(), try ours.samples(), width: ours.width, channels: 3)
                    XCTAssertLessThanOrEqual(d.worst, 1, "\(look) \(interpolation) on \(backend): \(d)")
                }
            }
        }
    }

    func ffmpeg() throws -> String {
        guard let path = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: FileManager.default.isExecutableFile)
        else { throw XCTSkip("ffmpeg is not installed (scripts/install-deps.sh installs it with the test packages)") }
        return path
    }

    func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments)")
    }

    /// Hald CLUTs: ffmpeg's identity (haldclutsrc=4, 64×64) changes nothing; graded by a look (the look rendered on
    /// the identity image), it grades a photo as ffmpeg's haldclut does, within 1 code.
    func testHaldCLUTs() throws {
        let identity = Fixtures.path("lut/identity_hald4.png")
        let photo = try TestImages.decode(path: Fixtures.path("photos/chelsea_451x300_rgb8.png"))
        let same = try Renderer(backend: .cpu).render(Recipe.chain([(.lut, ["path": .string(identity)])], workingSpace: .srgb),
                                                      images: ["main": photo])
        XCTAssertLessThanOrEqual(Difference.between(try photo.samples(), try same.samples(), width: photo.width, channels: 3).worst, 1)

        let graded = scratch.appendingPathComponent("teal-orange-hald4.png").path
        let look = Fixtures.repository.appendingPathComponent("recipes/looks/teal-orange.cube").path
        try Renderer(backend: .cpu).render(Recipe.chain([(.lut, ["path": .string(look)])], workingSpace: .srgb),
                                           inputs: ["main": identity], output: graded)
        let theirs = scratch.appendingPathComponent("haldclut-ffmpeg.png").path
        try run(try ffmpeg(), ["-loglevel", "error", "-y", "-i", Fixtures.path("photos/chelsea_451x300_rgb8.png"), "-i", graded,
                               "-filter_complex", "haldclut=interp=tetrahedral", "-pix_fmt", "rgb24", "-frames:v", "1", theirs])
        for backend in [Backend.cpu, .vulkan] {
            let ours = try Renderer(backend: backend).render(Recipe.chain([(.lut, ["path": .string(graded)])], workingSpace: .srgb),
                                                             images: ["main": photo])
            let d = Difference.between(try PNGDecoder.decode(path: theirs).samples(), try ours.samples(), width: ours.width, channels: 3)
            XCTAssertLessThanOrEqual(d.worst, 1, "\(backend): \(d)")
        }
        // Not a Hald CLUT: a 451×300 photo.
        let wrong = Recipe.chain([(.lut, ["path": .string(Fixtures.path("photos/chelsea_451x300_rgb8.png"))])])
        XCTAssertThrowsError(try Renderer(backend: .cpu).render(wrong, images: ["main": photo])) { error in
            XCTAssertTrue("\(error)".contains("a Hald CLUT is a square of level³ pixels a side"), "\(error)")
        }
    }
}
