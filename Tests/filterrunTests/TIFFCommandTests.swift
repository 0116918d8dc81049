import FilterCore
import Foundation
import PNGCodec
import TestSupport
import TIFFCodec
import XCTest

/// TIFF through filterrun: 16-bit in and out, its orientation tag and profile honoured, compression chosen.
extension FilterRunTests {
    func tiff(_ name: String) -> String { Fixtures.path("tiff/" + name) }

    /// --page picks a page of a multi-page TIFF; a page it lacks, a format without pages and a bad value are refused
    /// with what was asked and what there is.
    func testPageOption() throws {
        let invert = try write("invert-pages.json", #"{"version": 1, "steps": [{"op": "invert"}, {"op": "invert"}]}"#)
        var r = try run([invert, tiff("two_pages_rgb8_grey16.tif"), path("page1.png"), "--page", "1", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try PNGDecoder.decode(path: path("page1.png")).packedData(),
                       try PNGDecoder.decode(path: tiff("grey16.expected.png")).packedData())
        r = try run([invert, tiff("two_pages_rgb8_grey16.tif"), path("page0.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("has 2 pages; the first is read (--page picks another)"), r.stderr)
        r = try run([invert, tiff("two_pages_rgb8_grey16.tif"), path("page5.png"), "--page", "5"])
        XCTAssertNotEqual(r.code, 0)
        XCTAssertTrue(r.stderr.contains("--page 5 asks for a page this TIFF does not have: it has 2 pages (0 to 1)"), r.stderr)
        r = try run([invert, photo, path("photo-page.png"), "--page", "1"])
        XCTAssertNotEqual(r.code, 0)
        XCTAssertTrue(r.stderr.contains("pages are read from TIFF files"), r.stderr)
        r = try run([invert, photo, path("bad-page.png"), "--page", "-1"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("--page must be a whole number from 0 to 65535, got \"-1\""), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("page5.png")))
    }

    /// A pyramid TIFF shrunk far enough is read from its level (12 × f within the shrink in sRGB; said by
    /// --explain), within resize's tolerance of the full decode; a smaller shrink reads the image itself.
    func testPyramidLevelsShrinkOnLoad() throws {
        for (width, said) in [(5, "decoded at 1/2 from the TIFF's pyramid level (64×48 instead of 129×97)"), (20, nil)] {
            let recipe = try write("pyramid\(width).json", #"{"version": 1, "workingSpace": "srgb", "steps": [{"op": "resize", "width": "#
                                   + "\(width)}]}")
            for file in ["pyramid_pages_rgb8.tif", "pyramid_subifd_rgb8.tif"] {
                var r = try run([recipe, tiff(file), path("small.png"), "--backend", "cpu", "--explain", "--force"])
                XCTAssertEqual(r.code, 0, r.stderr)
                XCTAssertEqual(r.stdout.contains("pyramid level"), said != nil, r.stdout)
                if let said { XCTAssertTrue(r.stdout.contains(said), r.stdout) }
                XCTAssertFalse(r.stderr.contains("pages"), r.stderr)
                r = try run([recipe, tiff(file), path("exact.png"), "--backend", "cpu", "--no-optimize", "--force"])
                XCTAssertEqual(r.code, 0, r.stderr)
                let fast = try PNGDecoder.decode(path: path("small.png")).packedData(), exact = try PNGDecoder.decode(path: path("exact.png")).packedData()
                XCTAssertEqual(fast.count, exact.count)
                XCTAssertLessThanOrEqual(zip(fast, exact).map { abs(Int($0) - Int($1)) }.max() ?? 0, 2, file)
            }
        }
        // Over the memory limit, a refusal says what the decoder holds: a band of tiles or strips, whatever the layout.
        let invert = try write("invert-held.json", #"{"version": 1, "steps": [{"op": "invert"}]}"#)
        for (file, holds) in [("pyramid_pages_rgb8.tif", "MiB of decoded rows (a band of strips or tiles)"),
                              ("palette8.tif", "MiB of decoded rows (a band of strips or tiles)")] {
            let r = try run([invert, tiff(file), path("held.png"), "--max-memory", "30000"])
            XCTAssertEqual(r.code, 3, r.stderr)
            XCTAssertTrue(r.stderr.contains("\(file): decoding needs") && r.stderr.contains(holds) && !r.stderr.contains("coefficients")
                          && r.stderr.contains("memory limit of 0.03 MiB (--max-memory)"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path("held.png")))
        }
    }

    func testTIFFInAndOut() throws {
        let invert = try write("invert2.json", #"{"version": 1, "steps": [{"op": "invert"}, {"op": "invert"}]}"#)
        // 16-bit tiles in, 16-bit PNG out: the stored samples themselves.
        var r = try run([invert, tiff("rgb16_lzw_tiles.tif"), path("deep.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try PNGDecoder.decode(path: path("deep.png")).packedData(),
                       try PNGDecoder.decode(path: tiff("rgb16.expected.png")).packedData())
        // And out again as TIFF (LZW): 16 bits kept, readable by the decoder, the same samples.
        r = try run([invert, path("deep.png"), path("deep.tif"), "--tiff-compression", "lzw", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let back = try TIFFDecoder(path: path("deep.tif"))
        XCTAssertEqual(back.format, .rgb16)
        XCTAssertEqual(try back.readAll().packedData(), try PNGDecoder.decode(path: tiff("rgb16.expected.png")).packedData())
        // The orientation tag turns the image; the ICC tag's profile converts its colour.
        r = try run([invert, tiff("rgb8_orientation6.tif"), path("turned.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let turned = try PNGDecoder.decode(path: path("turned.png"))
        XCTAssertEqual([turned.width, turned.height], [64, 96])
        XCTAssertEqual(try run([invert, tiff("rgb8_icc_adobergb.tif"), path("tagged.png"), "--backend", "cpu"]).code, 0)
        XCTAssertEqual(try run([invert, tiff("rgb8_deflate_strips.tif"), path("plain.png"), "--backend", "cpu"]).code, 0)
        XCTAssertNotEqual(try PNGDecoder.decode(path: path("tagged.png")).packedData(),
                          try PNGDecoder.decode(path: path("plain.png")).packedData())
        // A bad compression name is refused; a damaged file is an input error naming it.
        r = try run([invert, photo, path("x.tif"), "--tiff-compression", "zstd"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("for '--tiff-compression") && r.stderr.contains("'none', 'deflate' or 'lzw'"), r.stderr)
        let whole = try Data(contentsOf: URL(fileURLWithPath: tiff("rgb16_lzw_tiles.tif")))
        FileManager.default.createFile(atPath: path("cut.tif"), contents: whole.prefix(whole.count / 3))
        r = try run([invert, path("cut.tif"), path("cut.png")])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("cut.tif: corrupt TIFF"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("cut.png")))
    }
}
