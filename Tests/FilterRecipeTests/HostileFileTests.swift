import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// Files of a few hundred bytes that declare far more than they hold (scripts/make-declared-size-fixtures.py writes
/// them): each is refused from its header, before the declared memory is allocated or the declared work done, with
/// an error naming the limit; and damaged data that a library would decode to wrong pixels is an error.
final class HostileFileTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    let thumbnail = Recipe.chain([(.resize, ["width": .number(64)])])

    func hostile(_ name: String) -> String { Fixtures.path("hostile/" + name) }

    /// The input failure a render gives, or a test failure when it renders.
    func failure(_ render: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> RenderError.InputFailure? {
        do {
            try render()
            XCTFail("rendered", file: file, line: line)
        } catch RenderError.input(let failure) {
            return failure
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
        return nil
    }

    /// A 12000² canvas of two 1×1 frames (140 bytes) crashed with a double free once refused; an 8192² one held
    /// 2.3 GiB under a 1 GiB limit (at that limit it is now refused once the first frame shows the writer's share,
    /// at 1.03 GiB, which takes a while in a debug build: here the limit is 768 MiB, under its frames' 1 GiB, so it
    /// is refused before any frame is decoded). Both are refused, with nothing written.
    func testAnimatedWebPCanvasesAreCountedBeforeDecoding() throws {
        var options = Renderer.Options()
        options.maxMemory = 768 << 20
        for name in ["webp-anim-canvas-12000.webp", "webp-anim-canvas-8192.webp"] {
            let output = scratch.appendingPathComponent(name).path
            let refused = failure { try Renderer(backend: .cpu, options: options).renderAnimation(thumbnail, inputs: ["main": hostile(name)], output: output) }
            XCTAssertEqual(refused?.kind, .tooLarge, name)
            XCTAssertTrue(refused?.message.contains("Renderer.Options.maxMemory") ?? false, "\(name): \(String(describing: refused))")
            XCTAssertFalse(FileManager.default.fileExists(atPath: output))
            // Read as a still (its first frame), the 12000² one is refused as well; the 8192² one fits the limit.
            if name.contains("12000") {
                let still = failure { try Renderer(backend: .cpu).render(thumbnail, inputs: ["main": hostile(name)], output: output + ".png") }
                XCTAssertEqual(still?.kind, .tooLarge)
            }
        }
    }

    /// Frames × canvas count as work: a file that declares 100 frames of 256² is refused before any is decoded when
    /// that is over the limit, and rendered when it is not.
    func testAnAnimationsFramesAreWork() throws {
        let input = hostile("webp-anim-frames-100.webp")
        var options = Renderer.Options()
        options.maxWork = 100 * 256 * 256 * 5
        let output = scratch.appendingPathComponent("frames.webp").path
        let refused = failure { try Renderer(backend: .cpu, options: options).renderAnimation(thumbnail, inputs: ["main": input], output: output) }
        XCTAssertEqual(refused?.kind, .tooLarge)
        XCTAssertTrue(refused?.message.contains("100 frames") ?? false, String(describing: refused))
        options.maxWork = 1e10
        let report = try Renderer(backend: .cpu, options: options).renderAnimation(thumbnail, inputs: ["main": input], output: output)
        XCTAssertEqual(report.frames, 100)
    }

    /// A GIF declares no frame count, but its frames are counted from its blocks: over the work limit, it is refused
    /// before the first frame is decoded, naming them; every frame also costs a fixed share (5·10⁵ taps).
    func testAGIFsFramesAreCountedBeforeDecoding() throws {
        let input = Fixtures.path("gif/disposal_animated_48x32.gif")
        var options = Renderer.Options()
        options.maxWork = 3 * 5e5
        let output = scratch.appendingPathComponent("gif-frames.webp").path
        let refused = failure { try Renderer(backend: .cpu, options: options).renderAnimation(thumbnail, inputs: ["main": input], output: output) }
        XCTAssertEqual(refused?.kind, .tooLarge)
        XCTAssertTrue(refused?.message.contains("its 4 frames of 48×32") ?? false, String(describing: refused))
        options.maxWork = 1e8
        XCTAssertEqual(try Renderer(backend: .cpu, options: options).renderAnimation(thumbnail, inputs: ["main": input], output: output).frames, 4)
    }

    /// AVIF's encoder costs each frame a fixed share beside its pixels (libaom's set-up: 10⁷ taps): four small
    /// frames under a limit that WebP's encoder fits are refused as AVIF, before the first is written.
    func testAnAVIFEncodersFramesCountTheirOwnWork() throws {
        let input = Fixtures.path("gif/disposal_animated_48x32.gif")
        var options = Renderer.Options()
        options.maxWork = 3.5e7
        let webp = try Renderer(backend: .cpu, options: options)
            .renderAnimation(thumbnail, inputs: ["main": input], output: scratch.appendingPathComponent("small.webp").path)
        XCTAssertEqual(webp.frames, 4)
        let avif = scratch.appendingPathComponent("small.avif").path
        let refused = failure { try Renderer(backend: .cpu, options: options).renderAnimation(thumbnail, inputs: ["main": input], output: avif) }
        XCTAssertEqual(refused?.kind, .tooLarge)
        XCTAssertTrue(refused?.message.contains("4 frames") ?? false, String(describing: refused))
        XCTAssertFalse(FileManager.default.fileExists(atPath: avif))
    }

    /// A 64² TIFF declaring one 65536² tile made libtiff allocate 12 GB; the tile's size is counted from the header.
    func testATIFFTileIsCountedBeforeDecoding() throws {
        let refused = failure { try Renderer(backend: .cpu).render(thumbnail, inputs: ["main": hostile("tiff-tile-65536.tif")],
                                                                     output: scratch.appendingPathComponent("t.png").path) }
        XCTAssertEqual(refused?.kind, .tooLarge)
        XCTAssertTrue(refused?.message.contains("64×64 TIFF declares tiles of 65536×65536") ?? false, String(describing: refused))
    }

    /// A GIF whose LZW data holds a code past its string table (Pillow: "broken data stream"; giflib decodes it to
    /// whatever its table holds) and a deflate TIFF strip whose Adler-32 fails (libtiff stops inflating before the
    /// checksum) are corrupt, not quietly wrong.
    func testDamagedDataIsAnErrorNotWrongPixels() throws {
        for (name, words) in [("gif-lzw-past-table.gif", "past the end of its string table"), ("tiff-deflate-bad-adler.tif", "zlib's check")] {
            let refused = failure { try Renderer(backend: .cpu).render(thumbnail, inputs: ["main": hostile(name)],
                                                                         output: scratch.appendingPathComponent(name + ".png").path) }
            XCTAssertEqual(refused?.kind, .corrupt, name)
            XCTAssertTrue(refused?.message.contains(words) ?? false, "\(name): \(String(describing: refused))")
        }
    }
}
