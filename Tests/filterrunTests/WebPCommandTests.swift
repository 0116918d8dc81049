import FilterCore
import Foundation
import PNGCodec
import TestSupport
import WebPCodec
import XCTest

/// WebP through filterrun: read by its bytes whatever its name, turned upright by its EXIF chunk, converted from its
/// ICC profile, written lossy or lossless by name or --format, and listed by batches.
extension FilterRunTests {
    func webp(_ name: String) -> String { Fixtures.path("webp/" + name) }

    func testWebPInAndOut() throws {
        let invert = try write("invert.json", #"{"version": 1, "steps": [{"op": "invert"}, {"op": "invert"}]}"#)
        // A double inversion renders the decoded pixels themselves: WebP in, PNG out, equal to the decoder's samples.
        var r = try run([invert, webp("lossless_rgba_160x120.webp"), path("logo.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let decoded = try WebPDecoder(path: webp("lossless_rgba_160x120.webp")).readAll()
        XCTAssertEqual(try PNGDecoder.decode(path: path("logo.png")).packedData(), try decoded.packedData())
        // And back: lossless WebP out keeps every sample.
        r = try run([invert, path("logo.png"), path("logo.webp"), "--lossless", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try WebPDecoder(path: path("logo.webp")).readAll().packedData(), try decoded.packedData())
        XCTAssertTrue(try WebPDecoder(path: path("logo.webp")).isLossless)
        // EXIF orientation 6: the 160×107 stored image comes out 107×160.
        r = try run([invert, webp("exif_orientation6_160x107.webp"), path("upright.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let upright = try PNGDecoder.decode(path: path("upright.png"))
        XCTAssertEqual([upright.width, upright.height], [107, 160])
        // An Adobe RGB profile is converted: the output differs from the untagged twin's pixels.
        XCTAssertEqual(try run([invert, webp("icc_adobergb_160x107.webp"), path("tagged.png"), "--backend", "cpu"]).code, 0)
        XCTAssertEqual(try run([invert, webp("lossy_160x107.webp"), path("untagged.png"), "--backend", "cpu"]).code, 0)
        XCTAssertNotEqual(try PNGDecoder.decode(path: path("tagged.png")).packedData(),
                          try PNGDecoder.decode(path: path("untagged.png")).packedData())
        // Lossy by quality: a lower quality makes a smaller file; a 16-bit result is said to be reduced.
        for quality in ["30", "90"] {
            r = try run([vignette, photo, path("q\(quality).webp"), "--quality", quality, "--backend", "cpu"])
            XCTAssertEqual(r.code, 0, r.stderr)
        }
        let size = { (name: String) in try FileManager.default.attributesOfItem(atPath: self.path(name))[.size] as? Int ?? 0 }
        XCTAssertLessThan(try size("q30.webp"), try size("q90.webp"))
        r = try run([vignette, Fixtures.path("photos/kleiber_crop_320x240_rgb16.png"), path("deep.webp"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("WebP stores 8 bits a sample"), r.stderr)
        // An animated WebP says that only its first frame is read.
        r = try run([invert, webp("animated_2frames_96x64.webp"), path("first.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("animated_2frames_96x64.webp is an animation of 2 frames; its first frame is read"), r.stderr)
        // A shrink of 15.3 decodes a lossy WebP at 1/3 by boxes of libwebp's rows (the largest f with 4 × f within it), a
        // lossless one at 1/(15.3 / 7.5) through libwebp's rescaler (said by --explain); both stay within resize's
        // tolerance of the full decode.
        let shrink = try write("shrink.json", #"{"version": 1, "workingSpace": "srgb", "steps": [{"op": "resize", "width": 10}]}"#)
        for (file, said) in [("lossy_160x107.webp", "decoded at 1/3 by box-averaging libwebp's rows as they decode (54×36 instead of 160×107)"),
                             ("lossless_160x107.webp", "decoded at 1/2.04 by libwebp's rescaler (79×53 instead of 160×107)")] {
            r = try run([shrink, webp(file), path("small.png"), "--backend", "cpu", "--explain", "--force"])
            XCTAssertEqual(r.code, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains(said), r.stdout)
            XCTAssertEqual(try run([shrink, webp(file), path("exact.png"), "--backend", "cpu", "--no-optimize", "--force"]).code, 0)
            let fast = try PNGDecoder.decode(path: path("small.png")).packedData(), exact = try PNGDecoder.decode(path: path("exact.png")).packedData()
            XCTAssertEqual(fast.count, exact.count)
            XCTAssertLessThanOrEqual(zip(fast, exact).map { abs(Int($0) - Int($1)) }.max() ?? 0, 2, file)
        }
        // Option values are checked.
        r = try run([vignette, photo, path("bad.webp"), "--effort", "9"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("--effort must be a whole number from 0 to 6"), r.stderr)
        // A batch lists .webp files with the others.
        try FileManager.default.createDirectory(atPath: path("in"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: webp("lossy_160x107.webp"), toPath: path("in/a.webp"))
        try FileManager.default.copyItem(atPath: photo, toPath: path("in/b.png"))
        r = try run([invert, path("in"), path("out"), "--backend", "cpu", "--quiet"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("out/a.webp")) && FileManager.default.fileExists(atPath: path("out/b.png")))
        // A damaged WebP is an input error naming the file.
        let whole = try Data(contentsOf: URL(fileURLWithPath: webp("lossy_160x107.webp")))
        FileManager.default.createFile(atPath: path("cut.webp"), contents: whole.prefix(whole.count / 2))
        r = try run([invert, path("cut.webp"), path("cut.png")])
        XCTAssertEqual(r.code, 3)
        XCTAssertTrue(r.stderr.contains("cut.webp: truncated"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("cut.png")))
    }
}
