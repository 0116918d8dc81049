import FilterCore
import Foundation
import GIFCodec
import PNGCodec
import TestSupport
import XCTest

/// GIF out: libimagequant's palettes written by giflib, read back by our decoder and by Pillow (independent of
/// giflib), which must agree with each other; the picture within the error a 256-colour palette allows; GIF's one
/// transparent index standing exactly for the pixels under half opacity; animations keeping delays and loop counts.
final class GIFWriterTests: XCTestCase, GIFReading {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    /// Runs a Python script (Pillow's reading) on `path`: what it wrote to standard output, and its exit status.
    func pillow(_ script: String, _ path: String) throws -> (output: [UInt8], status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let bytes = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        return (bytes, process.terminationStatus)
    }

    func write(_ source: PixelBuffer, options: GIFWriteOptions = .default, name: String) throws -> String {
        let path = scratch.appendingPathComponent(name).path
        let encoder = try GIFEncoder(output: try OutputFile(path: path, replace: false), width: source.width,
                                     height: source.height, format: source.format, options: options)
        try encoder.writeRows(try source.hostBytes(), stride: source.rowStride, count: source.height)
        try encoder.finish()
        return path
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8], channels: Int = 4) -> Double {
        var sum = 0.0, count = 0
        for i in a.indices where i % channels != 3 {
            let d = Double(a[i]) - Double(b[i])
            sum += d * d
            count += 1
        }
        return 10 * log10(255 * 255 / max(sum / Double(count), 1e-12))
    }

    func testPhotosComeBackWithinThePaletteError() throws {
        let photo = try PNGDecoder.decode(path: Fixtures.path("tiff/rgb8.expected.png"))
        let source = [UInt8](try photo.packedData())
        var sourceRGBA = [UInt8]()
        for p in stride(from: 0, to: source.count, by: 3) { sourceRGBA += source[p..<(p + 3)] + [255] }
        // PSNR floors for the 96×64 photo at each palette size, dithered and not, 1.5–2 dB under what libimagequant
        // 2.17 gives (41.4, 35.9 and 30.1 dB dithered at 256, 64 and 16 colours; 41.4 and 30.6 undithered).
        for (colours, dither, floor) in [(256, 1.0, 39.5), (64, 1.0, 34.0), (16, 1.0, 28.5), (256, 0.0, 39.5), (16, 0.0, 29.0)] {
            let path = try write(photo, options: GIFWriteOptions(colours: colours, dither: dither), name: "photo-\(colours)-\(dither).gif")
            let ours = try ours(path).rgba, pillow = try pillow(path)
            XCTAssertTrue(ours == pillow, "\(colours) colours: our reading and Pillow's differ")
            XCTAssertGreaterThan(Self.psnr(ours, sourceRGBA), floor, "\(colours) colours, dither \(dither)")
            var used = Set<Int>()
            for p in stride(from: 0, to: ours.count, by: 4) { used.insert(Int(ours[p]) << 16 | Int(ours[p + 1]) << 8 | Int(ours[p + 2])) }
            XCTAssertLessThanOrEqual(used.count, colours)
            XCTAssertTrue(ours.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }, "opaque photo, opaque GIF")
        }
        // Grey in, grey-looking out.
        let grey = try PNGDecoder.decode(path: Fixtures.path("tiff/grey16.expected.png"))
        let eight = PixelBuffer(width: grey.width, height: grey.height, format: .grey8, ledger: TransferLedger())
        let words = [UInt8](try grey.packedData())
        let target = try eight.mutableHostBytes()
        for i in 0..<(grey.width * grey.height) { target.storeBytes(of: words[i * 2 + 1], toByteOffset: (i / grey.width) * eight.rowStride + i % grey.width, as: UInt8.self) }
        let back = try ours(try write(eight, name: "grey.gif")).rgba
        for p in stride(from: 0, to: back.count, by: 4) {
            XCTAssertTrue(back[p] == back[p + 1] && back[p + 1] == back[p + 2], "pixel \(p / 4) is grey")
        }
    }

    func testTransparencyIsTheHalfOpacityThreshold() throws {
        // The photo with alpha rising left to right through every value.
        let photo = try PNGDecoder.decode(path: Fixtures.path("tiff/rgb8.expected.png"))
        let rgb = [UInt8](try photo.packedData())
        var source = [UInt8]()
        for p in 0..<(rgb.count / 3) { source += rgb[(p * 3)..<(p * 3 + 3)] + [UInt8(p % 96 * 255 / 95)] }
        let image = PixelBuffer(width: 96, height: 64, format: .rgba8, ledger: TransferLedger())
        let target = try image.mutableHostBytes()
        for y in 0..<64 { source.withUnsafeBytes { (target + y * image.rowStride).copyMemory(from: $0.baseAddress! + y * 96 * 4, byteCount: 96 * 4) } }
        let path = try write(image, name: "alpha.gif")
        let ours = try ours(path).rgba, pillow = try pillow(path)
        XCTAssertTrue(ours == pillow, "our reading and Pillow's differ")
        var transparent = 0
        for p in stride(from: 0, to: source.count, by: 4) {
            XCTAssertEqual(ours[p + 3], source[p + 3] < 128 ? 0 : 255, "pixel \(p / 4) (alpha \(source[p + 3]))")
            if source[p + 3] < 128 { transparent += 1 }
        }
        XCTAssertGreaterThan(transparent, 0, "the fixture has transparent pixels")
        XCTAssertLessThan(transparent, source.count / 4, "and opaque ones")
    }

    func testAnimationsKeepDelaysAndLoops() throws {
        var frames = [[UInt8]]()
        for i in 0..<3 {
            var frame = [UInt8]()
            for p in 0..<(32 * 16) {
                let alpha: UInt8 = p % 7 == i ? 0 : 255
                frame += [UInt8(p % 32 * 8), UInt8(i * 100), UInt8(p / 32 * 16), alpha]
            }
            frames.append(frame)
        }
        for (loops, expectedLoop) in [(0, "0"), (1, "None"), (3, "2")] {
            let path = scratch.appendingPathComponent("anim-\(loops).gif").path
            let writer = try AnimatedGIFWriter(output: try OutputFile(path: path, replace: false), width: 32, height: 16,
                                               loopCount: loops)
            for (i, frame) in frames.enumerated() {
                try frame.withUnsafeBytes { try writer.add(rgba: $0.baseAddress!, durationMilliseconds: 100 * (i + 1) + 4) }
            }
            try writer.finish()
            // Pillow reads the loop (NETSCAPE2.0's repeats: plays loops times, forever at 0) and each frame's delay.
            let script = "from PIL import Image; import sys; im = Image.open(sys.argv[1]); d = []\n"
                + "for i in range(im.n_frames):\n im.seek(i); d.append(str(im.info.get('duration')))\n"
                + "print(im.n_frames, im.info.get('loop'), ','.join(d))"
            let text = String(decoding: try pillow(script, path).output, as: UTF8.self)
            XCTAssertEqual(text.trimmingCharacters(in: .whitespacesAndNewlines), "3 \(expectedLoop) 100,200,300", "loop \(loops)")
            // Our reader gives the same frames, each its source with transparency under half opacity.
            let reading = try GIFAnimationReader(descriptor: open(path, O_RDONLY), name: path, limits: DecodeLimits())
            for (i, source) in frames.enumerated() {
                let frame = try XCTUnwrap(try reading.nextFrame())
                XCTAssertEqual(frame.durationMilliseconds, 100 * (i + 1))
                for p in stride(from: 0, to: source.count, by: 4) {
                    XCTAssertEqual(frame.pixels[p + 3], source[p + 3], "alpha")
                    if source[p + 3] == 255 {
                        for c in 0..<3 { XCTAssertLessThanOrEqual(abs(Int(frame.pixels[p + c]) - Int(source[p + c])), 12) }
                    }
                }
            }
            XCTAssertNil(try reading.nextFrame())
            XCTAssertEqual(reading.loopCount, loops)
        }
    }

    /// Opaque frames after the first are written as the rectangle that changed, the frame before left in place:
    /// a still background with a small moving square costs a fraction of whole frames, and both Pillow and our
    /// reader compose the same frames, each its source (few colours, so quantising keeps them exactly). A frame with
    /// transparent pixels in the middle is written whole, the one before written whole and cleared, and composes as
    /// its source too; so does a frame where nothing changed.
    func testOpaqueFramesAreWrittenAsWhatChanged() throws {
        let (w, h) = (64, 48)
        var frames = [[UInt8]]()
        for i in 0..<16 {
            var frame = [UInt8]()
            for y in 0..<h {
                for x in 0..<w {
                    let square = (i * 3..<(i * 3 + 6)).contains(x) && (20..<26).contains(y)
                    let hole = i == 5 && x < 4 && y < 4
                    frame += square ? [220, 30, 40, 255] : [UInt8(x / 8 * 30), UInt8(y / 8 * 40), 90, hole ? 0 : 255]
                }
            }
            frames.append(frame)
        }
        frames.append(frames[15])  // nothing changed: a one-pixel frame carries its delay
        // Every colour moved by 2, then by 6 more: the first is below what quantising moves a pixel (the screen
        // keeps showing the last frame, within 3 codes of this one); the second is written.
        frames.append(frames[15].enumerated().map { $0.offset % 4 == 3 ? $0.element : $0.element &+ ($0.element < 250 ? 2 : 0) })
        frames.append(frames[15].enumerated().map { $0.offset % 4 == 3 ? $0.element : $0.element &+ ($0.element < 240 ? 8 : 0) })
        let path = scratch.appendingPathComponent("moving.gif").path
        let writer = try AnimatedGIFWriter(output: try OutputFile(path: path, replace: false), width: w, height: h, loopCount: 0)
        for frame in frames { try frame.withUnsafeBytes { try writer.add(rgba: $0.baseAddress!, durationMilliseconds: 50) } }
        try writer.finish()
        var wholeFrames = 0
        for (i, frame) in frames.enumerated() {
            let still = try write(try PixelBuffer(width: w, height: h, format: .rgba8, copying: Data(frame)), name: "still\(i).gif")
            wholeFrames += try FileManager.default.attributesOfItem(atPath: still)[.size] as? Int ?? 0
        }
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        XCTAssertLessThan(size, wholeFrames / 3, "\(size) bytes against \(wholeFrames) for whole frames")
        let reading = try GIFAnimationReader(descriptor: open(path, O_RDONLY), name: path, limits: DecodeLimits())
        var composed = [[UInt8]]()
        for (i, source) in frames.enumerated() {
            let frame = try XCTUnwrap(try reading.nextFrame())
            XCTAssertEqual(frame.durationMilliseconds, 50)
            var expected = source
            for p in stride(from: 0, to: expected.count, by: 4) where expected[p + 3] == 0 { expected[p] = 0; expected[p + 1] = 0; expected[p + 2] = 0 }
            let within = i == frames.count - 2 ? 3 : 0
            let wrong = stride(from: 0, to: expected.count, by: 4).filter { p in
                (0..<4).contains { abs(Int(frame.pixels[p + $0]) - Int(expected[p + $0])) > within }
            }
            XCTAssertEqual(wrong.count, 0, "frame \(i): \(wrong.count) pixels differ, the first at \(wrong.first.map { ($0 / 4 % w, $0 / 4 / w) } ?? (0, 0)): "
                           + "\(wrong.first.map { Array(frame.pixels[$0..<($0 + 4)]) } ?? []) for \(wrong.first.map { Array(expected[$0..<($0 + 4)]) } ?? [])")
            if i == frames.count - 2 { XCTAssertTrue(frame.pixels == composed.last, "a change of 2 codes keeps the screen") }
            composed.append(frame.pixels)
        }
        XCTAssertNil(try reading.nextFrame())
        // Pillow composes the same frames.
        let script = "from PIL import Image; import sys; im = Image.open(sys.argv[1])\n"
            + "for i in range(im.n_frames):\n im.seek(i); sys.stdout.buffer.write(im.convert('RGBA').tobytes())"
        let (bytes, status) = try pillow(script, path)
        XCTAssertEqual(status, 0)
        for (i, frame) in composed.enumerated() where bytes.count >= (i + 1) * w * h * 4 {
            let pillow = Array(bytes[(i * w * h * 4)..<((i + 1) * w * h * 4)])
            // Opaque pixels alike (Pillow restores a cleared area to the background colour where browsers and our
            // reader show nothing, so transparent ones are not compared).
            var same = true
            for p in stride(from: 0, to: frame.count, by: 4) where frame[p + 3] == 255 && Array(frame[p..<(p + 4)]) != Array(pillow[p..<(p + 4)]) {
                same = false
            }
            XCTAssertTrue(same, "Pillow's frame \(i) differs")
        }
        XCTAssertEqual(bytes.count, frames.count * w * h * 4)
    }

    func testBadOptionsAreRefusedAndLeaveNothing() throws {
        let image = try PNGDecoder.decode(path: Fixtures.path("tiff/rgb8.expected.png"))
        for (options, message) in [(GIFWriteOptions(colours: 1), "colours must be 2...256"), (GIFWriteOptions(colours: 300), "colours must be 2...256"),
                                   (GIFWriteOptions(dither: 1.5), "dither must be 0...1"), (GIFWriteOptions(effort: 10), "effort must be 0...9")] {
            XCTAssertThrowsError(try write(image, options: options, name: "bad.gif")) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("bad.gif").path))
        }
        let deep = try PNGDecoder.decode(path: Fixtures.path("tiff/rgb16.expected.png"))
        XCTAssertThrowsError(try write(deep, name: "deep.gif")) { XCTAssertTrue("\($0)".contains("GIF output takes 8-bit rows"), "\($0)") }
    }
}
