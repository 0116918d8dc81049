import FilterCore
import GIFCodec
import Foundation
import HEIFCodec
import PNGCodec
import TestSupport
import WebPCodec
import XCTest

/// HEIC and AVIF through filterrun: read by their bytes whatever their name, written as AVIF with the shared
/// options, HEIC output refused with the way out, batches over phone folders, damaged files named.
extension FilterRunTests {
    func heif(_ name: String) -> String { Fixtures.path("heif/" + name) }

    /// libheif and libjxl (with their codecs, ~5.5 ms a process) and libtiff (with Lerc, JBIG, zstd, LZMA and
    /// libdeflate, ~0.6 MiB) load only when a file needs them: a JPEG render never maps them, a HEIC, JPEG XL or TIFF
    /// one does, read or written (the dynamic loader's own log says which files it opened).
    func testCodecLibrariesLoadOnlyWhenUsed() throws {
        let invert = try write("invert.json", #"{"version": 1, "steps": [{"op": "invert"}]}"#)
        func loaded(_ input: String, _ output: String) throws -> String {
            let r = try run([invert, input, path(output), "--backend", "cpu"], environment: ["LD_DEBUG": "files"])
            XCTAssertEqual(r.code, 0, r.stderr)
            return r.stderr.split(separator: "\n").filter { $0.contains("file=") }.joined(separator: "\n")
        }
        let jpeg = try loaded(Fixtures.path("jpeg/baseline_420.jpg"), "plain.jpg")
        XCTAssertFalse(jpeg.contains("libheif") || jpeg.contains("libjxl") || jpeg.contains("libhwy")
                       || jpeg.contains("libtiff") || jpeg.contains("libLerc"), jpeg)
        XCTAssertTrue(try loaded(tiff("two_pages_rgb8_grey16.tif"), "tiff.png").contains("libtiff"))
        XCTAssertTrue(try loaded(Fixtures.path("jpeg/baseline_420.jpg"), "written.tif").contains("libtiff"))
        XCTAssertTrue(try loaded(heif("heic_q80_96x64.heic"), "heic.png").contains("libheif"))
        let jxl = try loaded(Fixtures.path("jxl/lossless_96x64.jxl"), "jxl.png")
        XCTAssertTrue(jxl.contains("libjxl") && jxl.contains("libjxl_threads"), jxl)
    }

    func testHEIFInAndAVIFOut() throws {
        let invert = try write("invert2.json", #"{"version": 1, "steps": [{"op": "invert"}, {"op": "invert"}]}"#)
        // A double inversion renders the decoded pixels: HEIC in, PNG out, equal to the decoder's samples.
        var r = try run([invert, heif("heic_alpha_96x64.heic"), path("alpha.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try PNGDecoder.decode(path: path("alpha.png")).packedData(),
                       try HEIFDecoder(path: heif("heic_alpha_96x64.heic")).readAll().packedData())
        // Named .jpg, still read as AVIF (formats are told by bytes).
        try FileManager.default.copyItem(atPath: heif("avif_q80_96x64.avif"), toPath: path("misnamed.jpg"))
        r = try run([invert, path("misnamed.jpg"), path("misnamed.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        // AVIF out: lossless keeps every sample; quality and effort change the file; --bit-depth is checked.
        r = try run([invert, path("alpha.png"), path("alpha.avif"), "--lossless", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try HEIFDecoder(path: path("alpha.avif")).readAll().packedData(),
                       try PNGDecoder.decode(path: path("alpha.png")).packedData())
        for quality in ["20", "90"] {
            r = try run([vignette, photo, path("q\(quality).avif"), "--quality", quality, "--effort", "8", "--backend", "cpu"])
            XCTAssertEqual(r.code, 0, r.stderr)
        }
        let size = { (name: String) in try FileManager.default.attributesOfItem(atPath: self.path(name))[.size] as? Int ?? 0 }
        XCTAssertLessThan(try size("q20.avif"), try size("q90.avif"))
        r = try run([vignette, photo, path("bad.avif"), "--bit-depth", "9"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("--bit-depth must be 8, 10 or 12"), r.stderr)
        r = try run([vignette, photo, path("bad.avif"), "--effort", "10"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("--effort must be a whole number from 0 to 9"), r.stderr)
        // HEIC is not written: the message says what is, and nothing is left.
        r = try run([invert, heif("heic_q80_96x64.heic"), path("out.heic")])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("HEIC is read but not written"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.heic")))
        r = try run([invert, heif("heic_q80_96x64.heic"), path("out.x"), "--format", "heic"])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("The value 'heic' is invalid for '--format <format>': HEIC is read but not written"), r.stderr)
        // A phone folder converted to JPEG in a batch; without --format each HEIC is refused by name.
        try FileManager.default.createDirectory(atPath: path("phone"), withIntermediateDirectories: true)
        for name in ["heic_q80_96x64.heic", "heic_grid_2x2_120x100.heic", "avif_alpha_96x64.avif"] {
            try FileManager.default.copyItem(atPath: heif(name), toPath: path("phone/" + name))
        }
        r = try run([invert, path("phone"), path("jpegs"), "--format", "jpeg", "--backend", "cpu", "--quiet"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("jpegs")).sorted(),
                       ["avif_alpha_96x64.jpg", "heic_grid_2x2_120x100.jpg", "heic_q80_96x64.jpg"])
        r = try run([invert, path("phone"), path("same"), "--backend", "cpu"])
        XCTAssertNotEqual(r.code, 0)
        XCTAssertTrue(r.stderr.contains("HEIC is read but not written"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("same/avif_alpha_96x64.avif")))
        // A damaged HEIC is an input error naming the file.
        let whole = try Data(contentsOf: URL(fileURLWithPath: heif("heic_q80_96x64.heic")))
        FileManager.default.createFile(atPath: path("cut.heic"), contents: whole.prefix(whole.count / 2))
        r = try run([invert, path("cut.heic"), path("cut.png")])
        XCTAssertEqual(r.code, 3)
        XCTAssertTrue(r.stderr.contains("cut.heic: corrupt HEIF"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("cut.png")))
    }
}

/// GIF through filterrun: the first frame read by its bytes, GIF output refused with the way out, batches list it.
extension FilterRunTests {
    func testGIFIn() throws {
        let invert = try write("invert2g.json", #"{"version": 1, "steps": [{"op": "invert"}, {"op": "invert"}]}"#)
        var r = try run([invert, Fixtures.path("gif/transparent_96x64.gif"), path("t.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try PNGDecoder.decode(path: path("t.png")).packedData(),
                       try PNGDecoder.decode(path: Fixtures.path("gif/transparent_96x64.expected.png")).packedData())
        XCTAssertFalse(r.stderr.contains("animation"), r.stderr)
        // An animated GIF says that only its first frame is read.
        r = try run([invert, Fixtures.path("gif/partial_animated_96x64.gif"), path("first.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("partial_animated_96x64.gif is an animation; its first frame is read (--frames all"), r.stderr)
        // --frames all renders every frame into an animated WebP (AnimationTests checks the frames' pixels).
        let animated = Fixtures.path("gif/disposal_animated_48x32.gif")
        r = try run([invert, animated, path("all.webp"), "--backend", "cpu", "--frames", "all", "--stats"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("animation: 4 frames, 48×32, playing 3×"), r.stderr)
        XCTAssertEqual(try WebPAnimationReader(descriptor: open(path("all.webp"), O_RDONLY), name: "all.webp",
                                               limits: DecodeLimits()).frameCount, 4)
        // In a batch, the animation written as WebP is rendered frame by frame, the still beside it as always.
        try FileManager.default.createDirectory(atPath: path("mixed"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: animated, toPath: path("mixed/anim.gif"))
        try FileManager.default.copyItem(atPath: Fixtures.path("gif/global_96x64.gif"), toPath: path("mixed/still.gif"))
        r = try run([invert, path("mixed"), path("mixed-out"), "--format", "webp", "--frames", "all", "--backend", "cpu", "--quiet"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try WebPAnimationReader(descriptor: open(path("mixed-out/anim.webp"), O_RDONLY), name: "anim.webp",
                                               limits: DecodeLimits()).frameCount, 4)
        XCTAssertEqual(try WebPAnimationReader(descriptor: open(path("mixed-out/still.webp"), O_RDONLY), name: "still.webp",
                                               limits: DecodeLimits()).frameCount, 1)
        r = try run([invert, animated, path("all.png"), "--backend", "cpu", "--frames", "all"])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("animations are written as WebP, AVIF, JPEG XL or GIF"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("all.png")))
        // GIF out: a still, and every frame with the GIF options (GIFWriterTests checks the pixels).
        r = try run([invert, Fixtures.path("gif/global_96x64.gif"), path("g.gif"), "--colours", "16", "--dither", "0.5", "--effort", "9"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try GIFDecoder(path: path("g.gif")).width, 96)
        r = try run([invert, animated, path("all.gif"), "--backend", "cpu", "--frames", "all", "--stats"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("animation: 4 frames, 48×32, playing 3×"), r.stderr)
        // An AVIF sequence renders frame by frame with --frames all (a still AVIF stays a still), and is written as one.
        let sequence = Fixtures.path("heif/avif_sequence_4frames_96x64.avif")
        r = try run([invert, sequence, path("seq.webp"), "--backend", "cpu", "--frames", "all", "--stats"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("animation: 4 frames, 96×64, looping forever"), r.stderr)
        r = try run([invert, animated, path("seq.avif"), "--backend", "cpu", "--frames", "all", "--stats"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("animation: 4 frames, 48×32"), r.stderr)
        r = try run([invert, Fixtures.path("heif/avif_q80_96x64.avif"), path("still.png"), "--backend", "cpu", "--frames", "all"])
        XCTAssertEqual(r.code, 0, r.stderr)
        r = try run([invert, sequence, path("seq-first.png"), "--backend", "cpu"])
        XCTAssertTrue(r.stderr.contains("is an animation; its first frame is read"), r.stderr)
        for (option, value, message) in [("--colours", "300", "--colours must be"), ("--dither", "2", "--dither must be a number from 0 to 1")] {
            r = try run([invert, animated, path("bad.gif"), option, value])
            XCTAssertEqual(r.code, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains(message), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path("bad.gif")))
        }
        try FileManager.default.createDirectory(atPath: path("gifs"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.path("gif/global_96x64.gif"), toPath: path("gifs/a.gif"))
        r = try run([invert, path("gifs"), path("pngs"), "--format", "png", "--backend", "cpu", "--quiet"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("pngs/a.png")))
        let whole = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("gif/global_96x64.gif")))
        FileManager.default.createFile(atPath: path("cut.gif"), contents: whole.prefix(whole.count / 2))
        r = try run([invert, path("cut.gif"), path("cut.png")])
        XCTAssertEqual(r.code, 3)
        XCTAssertTrue(r.stderr.contains("cut.gif: truncated"), r.stderr)
    }
}

/// JPEG XL through filterrun: read by its bytes, written by name with the shared options.
extension FilterRunTests {
    func testJPEGXLInAndOut() throws {
        let invert = try write("invert2j.json", #"{"version": 1, "steps": [{"op": "invert"}, {"op": "invert"}]}"#)
        var r = try run([invert, photo, path("p.jxl"), "--lossless", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        r = try run([invert, path("p.jxl"), path("back.png"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try PNGDecoder.decode(path: path("back.png")).packedData(), try PNGDecoder.decode(path: photo).packedData())
        for quality in ["40", "95"] {
            r = try run([vignette, photo, path("q\(quality).jxl"), "--quality", quality, "--effort", "3", "--backend", "cpu"])
            XCTAssertEqual(r.code, 0, r.stderr)
        }
        let size = { (name: String) in try FileManager.default.attributesOfItem(atPath: self.path(name))[.size] as? Int ?? 0 }
        XCTAssertLessThan(try size("q40.jxl"), try size("q95.jxl"))
        r = try run([vignette, photo, path("bad.jxl"), "--effort", "0"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("--effort must be a whole number from 1 to 9"), r.stderr)
    }
}
