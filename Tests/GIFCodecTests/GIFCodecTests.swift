import FilterCore
import Foundation
import GIFCodec
import PNGCodec
import TestSupport
import XCTest

/// GIF in: the first frame composed as a viewer shows it, checked against the composition computed from the
/// file's indices and palettes (`*.expected.png`, scripts/make-gif-fixtures.py) and against Pillow, an independent
/// decoder, where the two agree on what a viewer shows; damaged and hostile files give errors, never traps.
final class GIFCodecTests: XCTestCase, GIFReading {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    func fixture(_ name: String) -> String { Fixtures.path("gif/" + name) }

    func expected(_ name: String) throws -> [UInt8] {
        [UInt8](try PNGDecoder.decode(path: fixture(name + ".expected.png")).packedData())
    }

    func testEveryVariantDecodesToItsComposition() throws {
        for (name, expectation, size, format) in [
            ("global_96x64", "global_96x64", [96, 64], PixelFormat.rgb8),
            ("interlaced_96x64", "global_96x64", [96, 64], .rgb8),
            ("local_table_96x64", "global_96x64", [96, 64], .rgb8),
            ("transparent_96x64", "transparent_96x64", [96, 64], .rgba8),
            ("partial_animated_96x64", "partial_animated_96x64", [96, 64], .rgba8),
            ("frame_past_canvas_16x16", "frame_past_canvas_16x16", [24, 24], .rgba8),
        ] {
            let (decoder, rgba) = try ours(fixture(name + ".gif"))
            XCTAssertEqual([decoder.width, decoder.height], size, name)
            XCTAssertEqual(decoder.format, format, name)
            XCTAssertEqual(rgba, try expected(expectation), "\(name): not the first frame as composed")
        }
        XCTAssertTrue(try GIFDecoder(path: fixture("partial_animated_96x64.gif")).readAllAndReport().isAnimated)
        XCTAssertFalse(try GIFDecoder(path: fixture("global_96x64.gif")).readAllAndReport().isAnimated)
    }

    /// Pillow agrees wherever a frame covers the canvas; outside a smaller first frame it paints the background
    /// colour where browsers (and we) leave the canvas transparent, so there only the frame's rectangle is compared.
    func testPillowAgrees() throws {
        for name in ["global_96x64", "interlaced_96x64", "local_table_96x64", "transparent_96x64"] {
            XCTAssertTrue(try ours(fixture(name + ".gif")).rgba == pillow(fixture(name + ".gif")), name)
        }
        for (name, width, frame) in [("partial_animated_96x64", 96, (x: 20, y: 10, w: 40, h: 30)),
                                     ("frame_past_canvas_16x16", 24, (x: 8, y: 8, w: 16, h: 16))] {
            let ourPixels = try ours(fixture(name + ".gif")).rgba, theirs = try pillow(fixture(name + ".gif"))
            for y in frame.y..<(frame.y + frame.h) {
                let range = (y * width + frame.x) * 4..<(y * width + frame.x + frame.w) * 4
                XCTAssertTrue(ourPixels[range] == theirs[range], "\(name): row \(y) of the first frame")
            }
        }
    }

    /// XMP in its "XMP DataXMP" application extension (`xmp_96x64.gif`: ExifTool's tagging of `global_96x64.gif`) is
    /// the input's XMP, byte for byte what ExifTool wrote; the image is unchanged by it. Without the magic trailer, or
    /// with something else behind the identifier, there is none; cut anywhere, never a trap. Our writer's extension
    /// reads back as the packet it was given.
    func testXMPIsReadAndWritten() throws {
        let decoder = try GIFDecoder(path: fixture("xmp_96x64.gif"))
        let text = try XCTUnwrap(decoder.metadata.xmp.flatMap { String(bytes: $0, encoding: .utf8) })
        XCTAssertTrue(text.hasPrefix("<?xpacket begin="), text)
        XCTAssertTrue(text.hasSuffix("<?xpacket end='w'?>"), String(text.suffix(40)))
        XCTAssertTrue(text.contains("GIF title"))
        XCTAssertEqual(try decoder.readAll().packedData(), try GIFDecoder(path: fixture("global_96x64.gif")).readAll().packedData())
        XCTAssertNil(try GIFDecoder(path: fixture("global_96x64.gif")).metadata.xmp)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture("xmp_96x64.gif"))))
        let trailer = try XCTUnwrap((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)] == [0x01, 0xFF, 0xFE, 0xFD] })
        var untrailed = bytes
        untrailed[trailer + 1] = 0
        XCTAssertNil(GIFDecoder.xmp(in: untrailed))
        for cut in stride(from: 0, through: bytes.count, by: 97) { _ = GIFDecoder.xmp(in: Array(bytes.prefix(cut))) }
        // Written back (a packet of every length class: short, and longer than a sub-block many times over), the
        // same bytes come out, and the image still decodes as without it.
        let image = try GIFDecoder(path: fixture("global_96x64.gif")).readAll()
        for packet in [Array(text.utf8), Array((text + String(repeating: " ", count: 70_000)).utf8)] {
            let path = scratch.appendingPathComponent("xmp\(packet.count).gif").path
            let encoder = try GIFEncoder(output: try OutputFile(path: path, replace: false), width: image.width, height: image.height,
                                         format: image.format, metadata: OutputMetadata(xmp: packet))
            try encoder.writeRows(try image.hostBytes(), stride: image.rowStride, count: image.height)
            try encoder.finish()
            let read = try GIFDecoder(path: path)
            XCTAssertEqual(read.metadata.xmp, packet)
            XCTAssertEqual(try read.readAll().width, 96)
        }
    }

    func testDamagedAndHostileFilesAreErrorsNeverTraps() throws {
        // A canvas of 65535² over a 4×4 frame is refused by the pixel limit before anything is allocated.
        XCTAssertThrowsError(try GIFDecoder(path: fixture("huge_canvas.gif"))) {
            XCTAssertEqual(($0 as? CodecError)?.kind, .tooLarge, "\($0)")
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: fixture("interlaced_96x64.gif")))
        func decodeError(_ bytes: Data) -> CodecError? {
            let path = scratch.appendingPathComponent(UUID().uuidString + ".gif").path
            FileManager.default.createFile(atPath: path, contents: bytes)
            do { _ = try ours(path); return nil } catch let error as CodecError { return error } catch { XCTFail("\(error)"); return nil }
        }
        for cut in [6, 13, 20, 800, whole.count / 2, whole.count - 3] {
            let error = decodeError(whole.prefix(cut))
            XCTAssertNotNil(error, "cut at \(cut) decoded")
            XCTAssertTrue(error.map { $0.message.contains("truncated") || $0.message.contains("corrupt") } ?? false, "cut at \(cut): \(String(describing: error))")
        }
        var random = SplitMix64(seed: 41)
        for _ in 0..<300 {
            var bytes = [UInt8](whole)
            for _ in 0..<4 { bytes[6 + Int(random.next() % UInt64(bytes.count - 6))] = UInt8(random.next() & 0xFF) }
            _ = decodeError(Data(bytes))
        }
        XCTAssertThrowsError(try GIFDecoder(path: fixture("global_96x64.gif"), limits: DecodeLimits(maxPixels: 1000))) {
            XCTAssertTrue("\($0)".contains("over the limit of 1000"), "\($0)")
        }
    }
}

extension GIFDecoder {
    /// Reads every row (so what follows the first frame is known) and returns the decoder.
    func readAllAndReport() throws -> GIFDecoder {
        _ = try readAll()
        return self
    }
}

extension GIFCodecTests {
    /// A GIF's frames are counted from its blocks before any is decoded — as many as Pillow finds in each fixture —
    /// and a stream cut before its trailer, or with a byte that starts no block, counts nothing.
    func testFramesAreCountedFromTheBlocks() throws {
        for (name, frames) in [("disposal_animated_48x32.gif", 4), ("partial_animated_96x64.gif", 2), ("global_96x64.gif", 1),
                               ("interlaced_96x64.gif", 1), ("local_table_96x64.gif", 1), ("xmp_96x64.gif", 1)] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("gif/" + name))))
            XCTAssertEqual(GIFAnimationReader.countFrames(bytes), frames, name)
            XCTAssertNil(GIFAnimationReader.countFrames(Array(bytes.dropLast(2))), "\(name) without its last block's end")
            var broken = bytes
            broken[broken.count - 1] = 0x7F
            XCTAssertNil(GIFAnimationReader.countFrames(broken), "\(name) with no trailer")
        }
    }
}
