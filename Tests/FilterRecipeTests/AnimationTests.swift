import FilterCore
import FilterRecipe
import Foundation
import HEIFCodec
import JXLCodec
import GIFCodec
import TestSupport
import WebPCodec
import XCTest

/// Animations rendered frame by frame. The GIF fixture (scripts/make-gif-fixtures.py) has every disposal — kept,
/// cleared to the background, restored to the previous canvas — partial and interlaced frames, transparency, local
/// tables and a NETSCAPE2.0 loop count; the independent reference is libwebp's gif2webp (its own GIF reader,
/// lossless) decoded by libwebp's animation decoder, and webpmux reads the structure of what we write.
final class AnimationTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    let gif = Fixtures.path("gif/disposal_animated_48x32.gif")
    let durations = [100, 200, 300, 400]

    func frames(_ reader: any AnimationReader) throws -> [AnimationFrame] {
        var frames = [AnimationFrame]()
        while let frame = try reader.nextFrame() { frames.append(frame) }
        return frames
    }

    func open(_ path: String) throws -> any AnimationReader {
        let fd = Foundation.open(path, O_RDONLY)
        if path.hasSuffix(".avif") { return try AVIFSequenceReader(descriptor: fd, name: path, limits: DecodeLimits()) }
        if path.hasSuffix(".jxl") { return try JXLAnimationReader(descriptor: fd, name: path, limits: DecodeLimits()) }
        return path.hasSuffix(".gif") ? try GIFAnimationReader(descriptor: fd, name: path, limits: DecodeLimits())
                                      : try WebPAnimationReader(descriptor: fd, name: path, limits: DecodeLimits())
    }

    /// gif2webp's lossless conversion of the fixture, read back by libwebp.
    func reference() throws -> (frames: [AnimationFrame], loop: Int) {
        let converted = scratch.appendingPathComponent("reference.webp").path
        try ExternalTool.run("gif2webp", ["-quiet", gif, "-o", converted], package: "webp")
        let reader = try open(converted)
        return (try frames(reader), reader.loopCount)
    }

    /// Equal where visible; fully transparent pixels equal in alpha only (their colour is not shown).
    func assertSameVisible(_ a: [UInt8], _ b: [UInt8], _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, message, file: file, line: line)
        var differing = 0
        for p in stride(from: 0, to: min(a.count, b.count), by: 4) {
            if a[p + 3] != b[p + 3] || (a[p + 3] != 0 && a[p..<p + 3] != b[p..<p + 3]) { differing += 1 }
        }
        XCTAssertEqual(differing, 0, "\(message): \(differing) pixels differ", file: file, line: line)
    }

    func mirrored(_ rgba: [UInt8], width: Int) -> [UInt8] {
        var out = rgba
        let height = rgba.count / 4 / width
        for y in 0..<height { for x in 0..<width { for c in 0..<4 { out[(y * width + x) * 4 + c] = rgba[(y * width + width - 1 - x) * 4 + c] } } }
        return out
    }

    func testGIFFramesComposeAsGif2webpComposesThem() throws {
        let reader = try open(gif)
        let ours = try frames(reader)
        let (theirs, loop) = try reference()
        XCTAssertEqual(ours.count, 4)
        XCTAssertEqual(ours.count, theirs.count)
        XCTAssertEqual(ours.map(\.durationMilliseconds), durations)
        XCTAssertEqual(theirs.map(\.durationMilliseconds), durations)
        XCTAssertEqual(reader.loopCount, 3, "2 repeats after the first play")
        XCTAssertEqual(loop, 3)
        for (i, (a, b)) in zip(ours, theirs).enumerated() { assertSameVisible(a.pixels, b.pixels, "frame \(i + 1)") }
        // The disposals did something: the second frame's cleared rectangle shows through in the third frame.
        XCTAssertNotEqual(ours[1].pixels, ours[2].pixels)
    }

    func flipRecipe() throws -> Recipe {
        try Recipe(json: Data(#"{"version": 1, "steps": [{"op": "flip", "direction": "horizontal"}]}"#.utf8))
    }

    func testEveryFrameIsRenderedIntoAnAnimatedWebP() throws {
        let output = scratch.appendingPathComponent("flipped.webp").path
        var options = Renderer.Options()
        options.webp = WebPWriteOptions(lossless: true)
        let report = try Renderer(backend: .cpu, options: options).renderAnimation(try flipRecipe(), inputs: ["main": gif], output: output)
        XCTAssertEqual(report.frames, 4)
        XCTAssertEqual(report.loopCount, 3)
        let (reference, _) = try reference()
        let written = try open(output)
        let frames = try self.frames(written)
        XCTAssertEqual(frames.map(\.durationMilliseconds), durations)
        XCTAssertEqual(written.loopCount, 3)
        for (i, (frame, expected)) in zip(frames, reference).enumerated() {
            assertSameVisible(frame.pixels, mirrored(expected.pixels, width: 48), "frame \(i + 1)")
        }
        let info = try webpmuxInfo(output)
        XCTAssertTrue(info.contains("Number of frames: 4"), info)
        XCTAssertTrue(info.contains("Loop Count : 3"), info)
    }

    /// GIF in, AVIF sequence out (lossless) and back to GIF: the frames as the lossless WebP path renders them,
    /// the durations kept (AVIF sequences written here play forever: libavif 0.11 writes no repetition count).
    func testAnimationsGoToAndFromAVIFSequences() throws {
        var options = Renderer.Options()
        options.avif = AVIFWriteOptions(lossless: true)
        options.webp = WebPWriteOptions(lossless: true)
        let renderer = Renderer(backend: .cpu, options: options)
        let sequence = scratch.appendingPathComponent("flipped.avif").path, webp = scratch.appendingPathComponent("flipped.webp").path
        let report = try renderer.renderAnimation(try flipRecipe(), inputs: ["main": gif], output: sequence)
        try renderer.renderAnimation(try flipRecipe(), inputs: ["main": gif], output: webp)
        XCTAssertEqual(report.frames, 4)
        let read = try frames(try open(sequence)), expected = try frames(try open(webp))
        XCTAssertEqual(read.map(\.durationMilliseconds), durations)
        // Lossless RGB; fully transparent pixels' colour is not kept by either encoder.
        for (i, (a, b)) in zip(read, expected).enumerated() { assertSameVisible(a.pixels, b.pixels, "frame \(i + 1)") }
        // The sequence itself as an input, flipped back, as a GIF: its frames are the fixture's again.
        let back = scratch.appendingPathComponent("back.gif").path
        let again = try renderer.renderAnimation(try flipRecipe(), inputs: ["main": sequence], output: back)
        XCTAssertEqual(again.frames, 4)
        XCTAssertEqual(again.loopCount, 0, "a sequence plays forever")
        let original = try frames(try open(gif)), gifFrames = try frames(try open(back))
        XCTAssertEqual(gifFrames.map(\.durationMilliseconds), durations)
        for (i, (a, b)) in zip(gifFrames, original).enumerated() { assertSameVisible(a.pixels, b.pixels, "GIF frame \(i + 1)") }
    }

    /// An animation given as bytes (piped in) renders as the file does: the same frames, times and loop count.
    func testAnAnimationGivenAsBytesRendersAsTheFileDoes() throws {
        let fromFile = scratch.appendingPathComponent("file.webp").path
        let fromBytes = scratch.appendingPathComponent("bytes.webp").path
        var options = Renderer.Options()
        options.webp = WebPWriteOptions(lossless: true)
        let renderer = Renderer(backend: .cpu, options: options)
        try renderer.renderAnimation(try flipRecipe(), inputs: ["main": gif], output: fromFile)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: gif))
        let report = try renderer.renderAnimation(try flipRecipe(), sources: ["main": .encoded(bytes, name: "<stdin>")],
                                                  output: fromBytes)
        XCTAssertEqual(report.frames, 4)
        XCTAssertEqual(report.loopCount, 3)
        let a = try frames(try open(fromFile)), b = try frames(try open(fromBytes))
        XCTAssertEqual(a.map(\.durationMilliseconds), b.map(\.durationMilliseconds))
        XCTAssertEqual(a.map(\.pixels), b.map(\.pixels))
        // Damaged bytes name what they came as.
        let damaged = scratch.appendingPathComponent("damaged.webp").path
        XCTAssertThrowsError(try renderer.renderAnimation(try flipRecipe(), sources: ["main": .encoded(bytes.prefix(200), name: "<stdin>")],
                                                          output: damaged)) { error in
            XCTAssertTrue("\(error)".contains("<stdin>"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: damaged), "nothing is left")
    }

    func testAnAnimatedWebPInputKeepsItsFramesAndTimes() throws {
        let input = scratch.appendingPathComponent("input.webp").path
        try ExternalTool.run("gif2webp", ["-quiet", "-lossy", "-q", "90", gif, "-o", input], package: "webp")
        let output = scratch.appendingPathComponent("out.webp").path
        let report = try Renderer(backend: .cpu).renderAnimation(try flipRecipe(), inputs: ["main": input], output: output)
        XCTAssertEqual(report.frames, 4)
        let written = try open(output)
        XCTAssertEqual(try frames(written).map(\.durationMilliseconds), durations)
        XCTAssertEqual(written.loopCount, 3)
    }

    /// An animated WebP's ICCP chunk converts its frames, as a still WebP's converts its pixels: the first frame
    /// of the animation rendered equals the same frame as a tagged still rendered by the still path, and differs
    /// from the untagged rendering.
    func testAnAnimatedWebPsProfileConvertsItsFrames() throws {
        let plain = scratch.appendingPathComponent("plain.webp").path
        let tagged = scratch.appendingPathComponent("tagged.webp").path
        let icc = Fixtures.path("jpeg/compatibleWithAdobeRGB1998.icc")
        try ExternalTool.run("gif2webp", ["-quiet", gif, "-o", plain], package: "webp")
        try ExternalTool.run("webpmux", ["-set", "icc", icc, plain, "-o", tagged], package: "webp")
        let first = scratch.appendingPathComponent("first.webp").path
        let firstTagged = scratch.appendingPathComponent("first-tagged.webp").path
        try ExternalTool.run("webpmux", ["-get", "frame", "1", plain, "-o", first], package: "webp")
        try ExternalTool.run("webpmux", ["-set", "icc", icc, first, "-o", firstTagged], package: "webp")
        var options = Renderer.Options()
        options.webp = WebPWriteOptions(lossless: true)
        let renderer = Renderer(backend: .cpu, options: options)
        let animated = scratch.appendingPathComponent("animated.webp").path
        let untagged = scratch.appendingPathComponent("untagged.webp").path
        let still = scratch.appendingPathComponent("still.webp").path
        try renderer.renderAnimation(try flipRecipe(), inputs: ["main": tagged], output: animated)
        try renderer.renderAnimation(try flipRecipe(), inputs: ["main": plain], output: untagged)
        try renderer.render(try flipRecipe(), inputs: ["main": firstTagged], output: still)
        let frame = try XCTUnwrap(try open(animated).nextFrame()).pixels
        let plainFrame = try XCTUnwrap(try open(untagged).nextFrame()).pixels
        let reference = try XCTUnwrap(try open(still).nextFrame()).pixels
        let worst = zip(frame, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertLessThanOrEqual(worst, 1, "the animation's first frame against the tagged still")
        let moved = zip(frame, plainFrame).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertGreaterThan(moved, 8, "Adobe RGB moves saturated colours by more than a few codes")
    }

    /// A recipe with a still input beside the frames (a profile-tagged JPEG, then one turned by its EXIF orientation;
    /// cropped to the frames' size and multiplied over them): the animation's first frame equals the still path's
    /// rendering of the GIF's first frame.
    func testAStillInputServesEveryFrameThroughItsProfile() throws {
        let recipe = try Recipe(json: Data("""
            {"version": 1, "inputs": ["main", "photo"], "nodes": [
              {"id": "crop", "op": "crop", "width": 48, "height": 32, "inputs": ["photo"]},
              {"id": "mix", "op": "blend", "mode": "multiply", "opacity": 0.7, "inputs": ["crop", "main"]}],
             "output": "mix"}
            """.utf8))
        var options = Renderer.Options()
        options.webp = WebPWriteOptions(lossless: true)
        let renderer = Renderer(backend: .cpu, options: options)
        // Tagged Adobe RGB; turned by its EXIF orientation 6.
        for name in ["adobergb_icc.jpg", "metadata_gps_thumbnail_orientation6.jpg"] {
            let photo = Fixtures.path("jpeg/" + name)
            let animated = scratch.appendingPathComponent("mixed-\(name).webp").path
            let report = try renderer.renderAnimation(recipe, inputs: ["main": gif, "photo": photo], output: animated)
            XCTAssertEqual(report.frames, 4)
            let still = scratch.appendingPathComponent("first-\(name).webp").path
            try renderer.render(recipe, inputs: ["main": gif, "photo": photo], output: still)
            let frame = try XCTUnwrap(try open(animated).nextFrame()).pixels
            let reference = try XCTUnwrap(try open(still).nextFrame()).pixels
            XCTAssertEqual(frame.count, reference.count)
            let worst = zip(frame, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 1, "\(name): the animation's first frame against the still path's")
        }
    }

    func testRefusalsLeaveNothingBehind() throws {
        let renderer = Renderer(backend: .cpu)
        let png = scratch.appendingPathComponent("out.png").path
        XCTAssertThrowsError(try renderer.renderAnimation(try flipRecipe(), inputs: ["main": gif], output: png)) { error in
            XCTAssertTrue("\(error)".contains(".webp, .avif, .jxl or .gif"), "\(error)")
        }
        // A file cut inside its third frame: an input error naming it, and no output.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: gif))
        let cut = scratch.appendingPathComponent("cut.gif").path
        try bytes.prefix(bytes.count * 3 / 4).write(to: URL(fileURLWithPath: cut))
        let output = scratch.appendingPathComponent("cut.webp").path
        XCTAssertThrowsError(try renderer.renderAnimation(try flipRecipe(), inputs: ["main": cut], output: output)) { error in
            guard case RenderError.input(let failure) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.path, cut)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted(), ["cut.gif"])
        // A still format is not an animation.
        XCTAssertThrowsError(try renderer.renderAnimation(try flipRecipe(), inputs: ["main": Fixtures.path("gif/global_96x64.expected.png")],
                                                          output: output)) { error in
            XCTAssertTrue("\(error)".contains("not an animation"), "\(error)")
        }
    }

    /// djxl's frames of a JPEG XL animation: asked for PPM, djxl 0.7 writes each frame with alpha as a PAM ("P7"
    /// header up to "ENDHDR", then RGBA samples).
    func djxlFrames(_ path: String) throws -> [[UInt8]] {
        let base = scratch.appendingPathComponent("djxl").path
        try ExternalTool.run("djxl", [path, base + ".ppm", "--quiet"], package: "libjxl-tools")
        var frames = [[UInt8]]()
        while let data = FileManager.default.contents(atPath: "\(base)-\(frames.count).ppm") {
            let text = String(decoding: data.prefix(200), as: UTF8.self)
            guard text.hasPrefix("P7\n"), text.contains("DEPTH 4"), let end = text.range(of: "ENDHDR\n") else {
                XCTFail("djxl wrote no RGBA PAM: \(text.prefix(40))")
                break
            }
            frames.append([UInt8](data[text.utf8.distance(from: text.startIndex, to: end.upperBound)...]))
        }
        return frames
    }

    /// A JPEG XL animation (`cjxl -d 0` of the GIF fixture: four frames, three of them partial rectangles blended on
    /// the canvas) reads frame by frame as libjxl composes it — djxl's frames, the GIF's
    /// durations — and plays forever as cjxl wrote it. With `--frames all` it renders into an animated WebP; a still
    /// JPEG XL is not an animation, and a cut one fails naming the file, writing nothing.
    func testJPEGXLAnimationsRenderFrameByFrame() throws {
        let jxl = Fixtures.path("jxl/animated_48x32.jxl")
        let reader = try open(jxl)
        XCTAssertEqual(reader.width, 48)
        XCTAssertEqual(reader.height, 32)
        let ours = try frames(reader), theirs = try djxlFrames(jxl)
        XCTAssertEqual(ours.map(\.durationMilliseconds), durations)
        XCTAssertEqual(reader.loopCount, 0)
        XCTAssertEqual(ours.count, 4)
        XCTAssertEqual(theirs.count, 4)
        for (i, (a, b)) in zip(ours, theirs).enumerated() {
            assertSameVisible(a.pixels, b, "frame \(i + 1) against djxl's")
            // Only the third frame shows the canvas the second one's disposal cleared.
            let transparent = stride(from: 3, to: a.pixels.count, by: 4).filter { a.pixels[$0] == 0 }.count
            XCTAssertEqual(transparent > 0, i == 2, "frame \(i + 1): \(transparent) transparent pixels")
        }
        XCTAssertNil(try reader.nextFrame(), "no frame after the last")
        XCTAssertTrue(ImageInput.file(jxl).rendersAsFrames)
        XCTAssertFalse(ImageInput.file(Fixtures.path("jxl/lossless_96x64.jxl")).rendersAsFrames)

        var options = Renderer.Options()
        options.webp = WebPWriteOptions(lossless: true)
        let output = scratch.appendingPathComponent("flipped.webp").path
        let report = try Renderer(backend: .cpu, options: options).renderAnimation(try flipRecipe(), inputs: ["main": jxl], output: output)
        XCTAssertEqual(report.frames, 4)
        let written = try frames(try open(output))
        XCTAssertEqual(written.map(\.durationMilliseconds), durations)
        for (i, (frame, expected)) in zip(written, ours).enumerated() {
            assertSameVisible(frame.pixels, mirrored(expected.pixels, width: 48), "written frame \(i + 1)")
        }

        // Cut short: every frame before the cut may come, then an error naming the file; nothing written.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: jxl))
        let cut = scratch.appendingPathComponent("cut.jxl").path
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
        let cutOutput = scratch.appendingPathComponent("cut.webp").path
        XCTAssertThrowsError(try Renderer(backend: .cpu).renderAnimation(try flipRecipe(), inputs: ["main": cut], output: cutOutput)) { error in
            guard case RenderError.input(let failure) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.path, cut)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cutOutput))
    }

    /// GIF in, JPEG XL animation out (lossless): djxl decodes the file we write to the frames the lossless WebP
    /// path renders, with the GIF's durations, and our reader reads back the loop count; lossy (quality 90) stays
    /// within 8 codes on average of the opaque pixels (dithered palette frames of 48×32 are a DCT coder's worst case:
    /// 5.3 measured on the second).
    func testAnimationsGoToJPEGXL() throws {
        var options = Renderer.Options()
        options.jxl = JXLWriteOptions(lossless: true)
        options.webp = WebPWriteOptions(lossless: true)
        let renderer = Renderer(backend: .cpu, options: options)
        let jxl = scratch.appendingPathComponent("flipped.jxl").path, webp = scratch.appendingPathComponent("flipped.webp").path
        let report = try renderer.renderAnimation(try flipRecipe(), inputs: ["main": gif], output: jxl)
        try renderer.renderAnimation(try flipRecipe(), inputs: ["main": gif], output: webp)
        XCTAssertEqual(report.frames, 4)
        let expected = try frames(try open(webp)), theirs = try djxlFrames(jxl)
        XCTAssertEqual(theirs.count, 4)
        for (i, (a, b)) in zip(theirs, expected).enumerated() { assertSameVisible(a, b.pixels, "djxl's frame \(i + 1)") }
        let reader = try open(jxl)
        XCTAssertEqual(try frames(reader).map(\.durationMilliseconds), durations)
        XCTAssertEqual(reader.loopCount, 3)
        // Lossy: close to the lossless frames where they are opaque.
        var lossy = Renderer.Options()
        lossy.jxl = JXLWriteOptions(quality: 90)
        let lossyPath = scratch.appendingPathComponent("lossy.jxl").path
        try Renderer(backend: .cpu, options: lossy).renderAnimation(try flipRecipe(), inputs: ["main": gif], output: lossyPath)
        for (i, (a, b)) in zip(try frames(try open(lossyPath)), expected).enumerated() {
            var total = 0, count = 0
            for p in stride(from: 0, to: a.pixels.count, by: 4) where b.pixels[p + 3] == 255 {
                for c in 0..<3 { total += abs(Int(a.pixels[p + c]) - Int(b.pixels[p + c])) }
                count += 3
            }
            XCTAssertLessThan(Double(total) / Double(max(count, 1)), 8, "lossy frame \(i + 1)")
        }
    }

    func webpmuxInfo(_ path: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/webpmux") else { throw XCTSkip("webpmux (Debian's webp) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/webpmux")
        process.arguments = ["-info", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
