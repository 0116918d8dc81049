import FilterCore
import Foundation
import JPEGCodec
import PNGCodec
import TestSupport
import XCTest

/// Photos as they come: JPEG in and out, formats told by their bytes, EXIF orientation, shrink on load.
extension FilterRunTests {
    var emptyRecipe: String { get throws { try write("none.json", #"{"version":1,"steps":[]}"#) } }

    /// The stored image of an upright `u` for EXIF orientation `o`, from the Exif 2.3 definition of where the
    /// stored 0th row and column sit in the upright picture.
    func stored(_ u: PixelBuffer, orientation o: Int) throws -> PixelBuffer {
        let (w, h) = (u.width, u.height)
        let swaps = o >= 5
        let s = PixelBuffer(width: swaps ? h : w, height: swaps ? w : h, format: u.format)
        let src = try u.hostBytes(), dst = try s.mutableHostBytes(), bpp = u.format.bytesPerPixel
        for y in 0..<s.height {
            for x in 0..<s.width {
                let (ux, uy): (Int, Int)
                switch o {
                case 2: (ux, uy) = (w - 1 - x, y)
                case 3: (ux, uy) = (w - 1 - x, h - 1 - y)
                case 4: (ux, uy) = (x, h - 1 - y)
                case 5: (ux, uy) = (y, x)
                case 6: (ux, uy) = (w - 1 - y, x)
                case 7: (ux, uy) = (w - 1 - y, h - 1 - x)
                case 8: (ux, uy) = (y, h - 1 - x)
                default: (ux, uy) = (x, y)
                }
                (dst + y * s.rowStride + x * bpp).copyMemory(from: src + uy * u.rowStride + ux * bpp, byteCount: bpp)
            }
        }
        return s
    }

    /// A PNG of `image` carrying an eXIf chunk with `orientation`.
    func pngWithOrientation(_ image: PixelBuffer, _ orientation: Int, name: String) throws -> String {
        let plain = path(name + ".plain.png")
        try PNGEncoder.encode(image, to: plain, replace: true)
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: plain)))
        bytes.insert(contentsOf: PNGChunks.chunk("eXIf", Exif.block(orientation: orientation, littleEndian: orientation % 2 == 0)), at: 33)
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    func testAllEightOrientationsTurnUprightExactly() throws {
        let upright = try TestImages.crop("photos/chelsea_451x300_rgb8.png", x: 100, y: 50, width: 37, height: 23)
        let expected = try PixelDigest.packedBytes(upright)
        for o in 1...8 {
            let storedImage = try stored(upright, orientation: o)
            let input = try pngWithOrientation(storedImage, o, name: "o\(o).png")
            let r = try run([try emptyRecipe, input, path("up\(o).png"), "--backend", "cpu"])
            XCTAssertEqual(r.code, 0, r.stderr)
            let out = try PNGDecoder.decode(path: path("up\(o).png"))
            XCTAssertEqual([out.width, out.height], [37, 23], "orientation \(o)")
            XCTAssertTrue(try PixelDigest.packedBytes(out) == expected, "orientation \(o) is not upright")
            // --no-autorotate keeps the stored pixels.
            XCTAssertEqual(try run([try emptyRecipe, input, path("kept\(o).png"), "--no-autorotate"]).code, 0)
            XCTAssertTrue(try PixelDigest.packedBytes(PNGDecoder.decode(path: path("kept\(o).png"))) == PixelDigest.packedBytes(storedImage))
        }
        // The same on the Vulkan backend (lavapipe here), through a recipe that turns as well.
        let turned = try write("turn.json", #"{"version":1,"steps":[{"op":"rotate","degrees":90},{"op":"rotate","degrees":270}]}"#)
        let input = try pngWithOrientation(try stored(upright, orientation: 7), 7, name: "v7.png")
        let r = try run([turned, input, path("v.png"), "--backend", "vulkan"])
        if r.code == 0 { XCTAssertTrue(try PixelDigest.packedBytes(PNGDecoder.decode(path: path("v.png"))) == expected) }
    }

    /// A JPEG stored sideways with an Exif APP1 segment comes out upright; outputs carry no orientation.
    func testJPEGExifOrientationIsApplied() throws {
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/baseline_420.jpg"))))
        let exif = Array("Exif".utf8) + [0, 0] + Exif.block(orientation: 6, littleEndian: false)
        bytes.insert(contentsOf: [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif, at: 2)
        try Data(bytes).write(to: URL(fileURLWithPath: path("side.jpg")))
        XCTAssertEqual(try JPEGDecoder(path: path("side.jpg")).metadata.orientation, 6)
        XCTAssertEqual(try run([try emptyRecipe, path("side.jpg"), path("up.png")]).code, 0)
        XCTAssertEqual(try run([try emptyRecipe, path("side.jpg"), path("stored.png"), "--no-autorotate"]).code, 0)
        let up = try PNGDecoder.decode(path: path("up.png")), kept = try PNGDecoder.decode(path: path("stored.png"))
        XCTAssertEqual([up.width, up.height], [109, 163])
        XCTAssertTrue(try PixelDigest.packedBytes(stored(up, orientation: 6)) == PixelDigest.packedBytes(kept))
        XCTAssertEqual(try run([try emptyRecipe, path("side.jpg"), path("up.jpg")]).code, 0)
        XCTAssertEqual(try JPEGDecoder(path: path("up.jpg")).metadata.orientation, 1)
    }

    func testFormatsAreToldByBytesAndOutputsByName() throws {
        let vignette = recipes.appendingPathComponent("vignette.json").path
        // A JPEG named .png is read as the JPEG it is.
        try FileManager.default.copyItem(atPath: Fixtures.path("jpeg/baseline_420.jpg"), toPath: path("photo.png"))
        var r = try run([vignette, path("photo.png"), path("out.jpg"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try JPEGDecoder(path: path("out.jpg")).width, 163)
        // Other image formats are named.
        try Data("BM\u{1}\u{0}\u{1}\u{0}\u{0}\u{0}".utf8).write(to: URL(fileURLWithPath: path("bitmap.png")))
        r = try run([vignette, path("bitmap.png"), path("o.png")])
        XCTAssertEqual(r.code, 3)
        XCTAssertTrue(r.stderr.contains("a BMP image; this build reads PNG, JPEG, WebP, TIFF, AVIF, JPEG XL, HEIC and GIF"), r.stderr)
        // An output name without a known extension needs --format.
        r = try run([vignette, photo, path("out.bmp")])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("out.bmp: cannot tell the output format from the name; end it in .png, .jpg, .jpeg, .webp, .tif, .tiff, .avif, .jxl, .gif, or set --format"), r.stderr)
        XCTAssertEqual(try run([vignette, photo, path("out.image"), "--format", "jpeg"]).code, 0)
        XCTAssertEqual(try JPEGDecoder(path: path("out.image")).height, 300)
    }

    func testJPEGOutputOptionsAndFlattening() throws {
        let none = try emptyRecipe
        // Alpha is flattened onto the background, with a note; fully transparent pixels take its colour.
        let rgba = Fixtures.path("photos/emerald_crop_320x240_rgba8.png")
        var r = try run([none, rgba, path("flat.jpg"), "--background", "#ff0000", "--quality", "100", "--subsampling", "444"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("JPEG has no alpha"), r.stderr)
        let source = try PNGDecoder.decode(path: rgba), flat = try JPEGDecoder.decode(path: path("flat.jpg"))
        let s = try source.samples(), f = try flat.samples()
        // The most transparent pixel: colour × alpha + red × (1 − alpha), in encoded values, within JPEG's loss.
        let clear = (0..<(320 * 240)).min { s[$0 * 4 + 3] < s[$1 * 4 + 3] }!
        let a = s[clear * 4 + 3] / 255
        XCTAssertLessThan(a, 0.5)
        for (c, background) in zip(0..<3, [255.0, 0, 0]) {
            XCTAssertEqual(f[clear * 3 + c], s[clear * 4 + c] * a + background * (1 - a), accuracy: 12, "channel \(c)")
        }
        // 16-bit input is reduced to 8 bits, said once.
        r = try run([none, Fixtures.path("photos/kleiber_crop_320x240_rgb16.png"), path("deep.jpg")])
        XCTAssertTrue(r.stderr.contains("reduced to 8"), r.stderr)
        // Quality, subsampling and progression reach the file.
        XCTAssertEqual(try run([none, photo, path("q50.jpg"), "--quality", "50"]).code, 0)
        XCTAssertEqual(try run([none, photo, path("q95p.jpg"), "--quality", "95", "--progressive", "--subsampling", "422"]).code, 0)
        let small = try Data(contentsOf: URL(fileURLWithPath: path("q50.jpg"))), big = try Data(contentsOf: URL(fileURLWithPath: path("q95p.jpg")))
        XCTAssertLessThan(small.count * 2, big.count)
        XCTAssertEqual(try JPEGStructure(small).samplingFactors, [2, 2])
        XCTAssertEqual(try JPEGStructure(big).samplingFactors, [2, 1])
        XCTAssertTrue(try JPEGStructure(big).progressive)
        XCTAssertEqual(try run([none, photo, path("bad.jpg"), "--quality", "0"]).code, 2)
        XCTAssertEqual(try run([none, photo, path("bad.jpg"), "--subsampling", "411"]).code, 2)
    }

    func testBatchesTakeJPEGsAndKeepEachExtensionUnlessAsked() throws {
        let dir = scratch.appendingPathComponent("mixed")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: photo, toPath: dir.appendingPathComponent("a.png").path)
        try FileManager.default.copyItem(atPath: Fixtures.path("jpeg/grey.jpg"), toPath: dir.appendingPathComponent("b.JPG").path)
        try FileManager.default.copyItem(atPath: Fixtures.path("jpeg/restart_444.jpg"), toPath: dir.appendingPathComponent("c.jpeg").path)
        let vignette = recipes.appendingPathComponent("vignette.json").path
        var r = try run([vignette, dir.path, path("out"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("out")).sorted(), ["a.png", "b.JPG", "c.jpeg"])
        XCTAssertEqual(try JPEGDecoder(path: path("out/b.JPG")).format, .grey8)
        r = try run([vignette, dir.path, path("png"), "--backend", "cpu", "--format", "png"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("png")).sorted(), ["a.png", "b.png", "c.png"])
        // a.png and a.jpg would both become a.png.
        try FileManager.default.copyItem(atPath: Fixtures.path("jpeg/grey.jpg"), toPath: dir.appendingPathComponent("a.jpg").path)
        r = try run([vignette, dir.path, path("clash"), "--format", "png"])
        XCTAssertEqual(r.code, 2, r.stderr)
    }

    /// A JPEG read only to be shrunk is decoded at 1/8 in the DCT where the exact resample still shrinks by 2 or
    /// more (`--fidelity high`, the default, in either working space), then resampled exactly: at least 40 dB
    /// against resizing the full decode. `--fidelity exact` (or the recipe's `"fidelity": "exact"`) decodes it
    /// whole and gives the unoptimised plan's pixels; the option overrides the recipe.
    func testShrinkOnLoadKeepsItsFidelity() throws {
        let input = Fixtures.path("jpeg/restart_444.jpg")
        for space in ["srgb", "linear"] {
            let thumb = try write("thumb-\(space).json", #"{"version":1,"workingSpace":"\#(space)","steps":[{"op":"resize","width":9}]}"#)
            let r = try run([thumb, input, path("fast.png"), "--explain", "--backend", "cpu", "--force"])
            XCTAssertEqual(r.code, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("decoded at 1/8 in the JPEG DCT (21×14 instead of 163×109)"), r.stdout)
            XCTAssertTrue(r.stdout.contains("fidelity high: ≥ 40 dB PSNR"), r.stdout)
            let exact = try run([thumb, input, path("exact.png"), "--fidelity", "exact", "--explain", "--backend", "cpu", "--force"])
            XCTAssertFalse(exact.stdout.contains("JPEG DCT"), exact.stdout)
            XCTAssertEqual(try run([thumb, input, path("plain.png"), "--no-optimize", "--backend", "cpu", "--force"]).code, 0)
            let a = try PNGDecoder.decode(path: path("fast.png")).samples(), b = try PNGDecoder.decode(path: path("exact.png")).samples()
            let plain = try PNGDecoder.decode(path: path("plain.png")).samples()
            XCTAssertGreaterThanOrEqual(Difference.psnr(b, a), 40, space)
            XCTAssertLessThanOrEqual(Difference.between(plain, b, width: 9, channels: 3).worst, 1, space)
        }
        // The recipe's own fidelity, and the option over it.
        let exactRecipe = try write("exact.json", #"{"version":1,"fidelity":"exact","steps":[{"op":"resize","width":9}]}"#)
        XCTAssertFalse(try run([exactRecipe, input, path("r.png"), "--explain"]).stdout.contains("JPEG DCT"))
        XCTAssertTrue(try run([exactRecipe, input, path("r.png"), "--explain", "--fidelity", "fast", "--force"]).stdout
            .contains("fidelity fast"))
        let typo = try write("typo.json", #"{"version":1,"fidelity":"hihg","steps":[]}"#)
        let refused = try run([typo, input, path("t.png")])
        XCTAssertEqual(refused.code, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("did you mean \"high\""), refused.stderr)
    }

    /// A baseline 4:2:0 JPEG at 1/8 is read from its DC coefficients (its AC codes passed over): at `--fidelity high`
    /// the thumbnail is the one libjpeg's own 1/8 decode gives (`FILTERRUN_JPEG_DC_PATH=0`), byte for byte; at `fast`
    /// its chroma comes from each block's DC, so it differs, within the fidelity's promise.
    func testBaselineEighthsKeepLibjpegsPixelsButAtFast() throws {
        let input = Fixtures.path("jpeg/baseline_420_451x300.jpg")
        let thumb = try write("thumb24.json", #"{"version":1,"workingSpace":"srgb","steps":[{"op":"resize","width":24}]}"#)
        let explained = try run([thumb, input, path("e.png"), "--explain", "--backend", "cpu"])
        XCTAssertTrue(explained.stdout.contains("decoded at 1/8 in the JPEG DCT"), explained.stdout)
        var pixels = [String: [Double]]()
        for fidelity in ["high", "fast"] {
            for way in ["dc", "libjpeg"] {
                let out = path("\(fidelity)-\(way).png")
                let r = try run([thumb, input, out, "--fidelity", fidelity, "--backend", "cpu", "--force"],
                                environment: way == "dc" ? [:] : ["FILTERRUN_JPEG_DC_PATH": "0"])
                XCTAssertEqual(r.code, 0, r.stderr)
                pixels["\(fidelity)-\(way)"] = try PNGDecoder.decode(path: out).samples()
            }
        }
        XCTAssertTrue(pixels["high-dc"] == pixels["high-libjpeg"], "high: libjpeg's pixels")
        XCTAssertFalse(pixels["fast-dc"] == pixels["fast-libjpeg"], "fast: chroma from the DC")
        XCTAssertGreaterThanOrEqual(Difference.psnr(pixels["fast-libjpeg"]!, pixels["fast-dc"]!), 35)
        let typo = try run([thumb, input, path("t.png")], environment: ["FILTERRUN_JPEG_DC_PATH": "off"])
        XCTAssertEqual(typo.code, 2, typo.stderr)
        XCTAssertTrue(typo.stderr.contains("FILTERRUN_JPEG_DC_PATH=\"off\" must be a whole number from 0 to 1"), typo.stderr)
    }

    /// A sideways photo's turn runs on the thumbnail, after the shrink (and the shrink may then happen in the
    /// DCT), vertical pass first: at the exact fidelity the same pixels as turning first, within resize's
    /// tolerance, and at the default fidelity within its 40 dB.
    func testTurnsMoveAfterTheShrink() throws {
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/restart_444.jpg"))))
        let exif = Array("Exif".utf8) + [0, 0] + Exif.block(orientation: 6)
        bytes.insert(contentsOf: [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif, at: 2)
        try Data(bytes).write(to: URL(fileURLWithPath: path("side.jpg")))
        for space in ["linear", "srgb"] {
            let thumb = try write("t-\(space).json", #"{"version":1,"workingSpace":"\#(space)","steps":[{"op":"resize","width":12}]}"#)
            let r = try run([thumb, path("side.jpg"), path("fast-\(space).png"), "--explain", "--backend", "cpu"])
            XCTAssertEqual(r.code, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("moved after resize"), r.stdout)
            // Turned, the shrink in height still runs first (the horizontal pass gathers only the output's rows).
            let passes = r.stdout.split(separator: "\n").filter { $0.contains(" resample ") }
            XCTAssertEqual(passes.map { $0.contains("resample vertical") }, [true, false], r.stdout)
            XCTAssertTrue(r.stdout.contains("in the JPEG DCT"), r.stdout)
            let turned = try run([thumb, path("side.jpg"), path("turned-\(space).png"), "--explain", "--backend", "cpu",
                                  "--fidelity", "exact"])
            XCTAssertTrue(turned.stdout.contains("moved after resize"), turned.stdout)
            XCTAssertEqual(try run([thumb, path("side.jpg"), path("exact-\(space).png"), "--no-optimize", "--backend", "cpu"]).code, 0)
            let a = try PNGDecoder.decode(path: path("fast-\(space).png")), b = try PNGDecoder.decode(path: path("exact-\(space).png"))
            let t = try PNGDecoder.decode(path: path("turned-\(space).png"))
            XCTAssertEqual([a.width, a.height], [12, 18])
            XCTAssertLessThanOrEqual(Difference.between(try b.samples(), try t.samples(), width: 12, channels: 3).worst, 2, space)
            XCTAssertGreaterThanOrEqual(Difference.psnr(try b.samples(), try a.samples()), 40, space)
        }
    }

    func testDamagedJPEGsExitThreeAndWriteNothing() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/progressive_422.jpg")))
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: path("cut.jpg")))
        let r = try run([recipes.appendingPathComponent("vignette.json").path, path("cut.jpg"), path("o.jpg")])
        XCTAssertEqual(r.code, 3)
        XCTAssertTrue(r.stderr.contains("cut.jpg: truncated"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix("o") || $0.hasPrefix(".o") }, [])
    }
}

/// The frame header of a JPEG file, read from its markers.
struct JPEGStructure {
    var samplingFactors: [Int] = []
    var progressive = false

    init(_ data: Data) throws {
        let b = Array(data)
        var i = 2
        while i + 4 < b.count, b[i] == 0xFF {
            let marker = b[i + 1], length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if marker == 0xC0 || marker == 0xC1 || marker == 0xC2 {
                progressive = marker == 0xC2
                samplingFactors = [Int(b[i + 11] >> 4), Int(b[i + 11] & 0xF)]
                return
            }
            i += 2 + length
        }
        throw NSError(domain: "JPEGStructure", code: 1)
    }
}
