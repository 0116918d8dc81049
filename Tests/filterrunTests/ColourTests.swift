import FilterCore
import Foundation
import JPEGCodec
import PNGCodec
import TestSupport
import XCTest

/// Colour management at the edges: embedded profiles convert into the working space, wide-gamut colours survive
/// the filters, outputs are sRGB unless asked, and a damaged profile never stops the pixels.
extension FilterRunTests {
    var adobeProfile: String { Fixtures.path("jpeg/compatibleWithAdobeRGB1998.icc") }

    /// sRGB encoding (IEC 61966-2-1) of a linear value, clamped to [0, 1].
    func srgbEncode(_ v: Double) -> Double {
        let c = min(max(v, 0), 1)
        return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
    }

    /// The ICC matrix/TRC model (ICC.1:2010 F.3) of the Adobe-compatible profile, read from its own tags, into
    /// sRGB through the D50-adapted sRGB colorants (ICC sRGB profile values): float64, independent of Little CMS.
    func adobeToSRGB(_ rgb: [Double]) throws -> [Double] {
        let icc = try Array(Data(contentsOf: URL(fileURLWithPath: adobeProfile)))
        func u32(_ at: Int) -> Int { Int(icc[at]) << 24 | Int(icc[at + 1]) << 16 | Int(icc[at + 2]) << 8 | Int(icc[at + 3]) }
        func s15(_ at: Int) -> Double { Double(Int32(bitPattern: UInt32(u32(at)))) / 65536 }
        var tags = [String: Int]()
        for i in 0..<u32(128) {
            tags[String(decoding: icc[(132 + 12 * i)..<(136 + 12 * i)], as: UTF8.self)] = u32(136 + 12 * i)
        }
        let columns = ["rXYZ", "gXYZ", "bXYZ"].map { tag in (0..<3).map { s15(tags[tag]! + 8 + 4 * $0) } }
        let trc = tags["rTRC"]!
        XCTAssertEqual(u32(trc + 8), 1, "a pure gamma curve")
        let gamma = Double(Int(icc[trc + 12]) << 8 | Int(icc[trc + 13])) / 256
        let linear = rgb.map { pow($0, gamma) }
        let xyz = (0..<3).map { row in (0..<3).map { columns[$0][row] * linear[$0] }.reduce(0, +) }
        // Inverse of the sRGB colorant matrix (columns R, G, B; D50 PCS).
        let m = [[0.4360747, 0.3850649, 0.1430804], [0.2225045, 0.7168786, 0.0606169], [0.0139322, 0.0971045, 0.7141733]]
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        func minor(_ r: Int, _ c: Int) -> Double {
            let rows = (0..<3).filter { $0 != r }, cols = (0..<3).filter { $0 != c }
            return m[rows[0]][cols[0]] * m[rows[1]][cols[1]] - m[rows[0]][cols[1]] * m[rows[1]][cols[0]]
        }
        let inverse = (0..<3).map { r in (0..<3).map { c in ((r + c) % 2 == 0 ? 1 : -1) * minor(c, r) / det } }
        return (0..<3).map { row in srgbEncode((0..<3).map { inverse[row][$0] * xyz[$0] }.reduce(0, +)) }
    }

    func testEmbeddedProfilesConvertToSRGBAsTheICCModelSays() throws {
        let r = try run([try emptyRecipe, Fixtures.path("jpeg/adobergb_icc.jpg"), path("srgb.png"), "--depth", "16", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let found = try PNGDecoder.decode(path: path("srgb.png")).samples()
        let stored = try PNGDecoder.decode(path: Fixtures.path("jpeg/adobergb_icc.djpeg.png")).samples()
        var worst = 0.0
        for p in stride(from: 0, to: stored.count, by: 3) {
            let expected = try adobeToSRGB(Array(stored[p..<(p + 3)]).map { $0 / 255 })
            for c in 0..<3 { worst = max(worst, abs(expected[c] * 65535 - found[p + c])) }
        }
        XCTAssertLessThanOrEqual(worst, 257, "worst difference \(worst / 257) 8-bit codes")
        // sRGB working space converts to sRGB-encoded values directly: the same colours within a code.
        let srgb = try write("srgb-none.json", #"{"version":1,"workingSpace":"srgb","steps":[]}"#)
        XCTAssertEqual(try run([srgb, Fixtures.path("jpeg/adobergb_icc.jpg"), path("srgb-space.png"), "--depth", "16"]).code, 0)
        let inSRGBSpace = try PNGDecoder.decode(path: path("srgb-space.png")).samples()
        XCTAssertLessThanOrEqual(Difference.between(found, inSRGBSpace, width: 163, channels: 3).worst, 257)
        // The conversion moved colours (this is not sRGB data read as sRGB).
        XCTAssertNotEqual(try PNGDecoder.decode(path: path("srgb.png")).format, .rgb8)
        XCTAssertEqual(try run([try emptyRecipe, Fixtures.path("jpeg/adobergb_icc.jpg"), path("plain.png"), "--ignore-profiles"]).code, 0)
        XCTAssertTrue(try PixelDigest.packedBytes(PNGDecoder.decode(path: path("plain.png")))
                      == PixelDigest.packedBytes(PNGDecoder.decode(path: Fixtures.path("jpeg/adobergb_icc.djpeg.png"))))
    }

    /// A tagged 8-bit RGBA image: colours convert as the ICC model says whatever the alpha, and alpha passes
    /// through untouched (the 8-bit path sums per-channel tables; alpha is set beside them and premultiplied).
    func testTaggedTranslucentPixelsConvertAndKeepTheirAlpha() throws {
        let width = 32, height = 8
        let image = PixelBuffer(width: width, height: height, format: .rgba8)
        let base = try image.mutableHostBytes().assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            for x in 0..<width {
                let p = base + (y * width + x) * 4
                (p[0], p[1], p[2]) = (UInt8(x * 8), UInt8(255 - y * 30), UInt8((x * 37 + y * 11) % 256))
                p[3] = UInt8(64 + (x * 6 + y) % 192)
            }
        }
        let file = path("tagged-rgba.png")
        let encoder = try PNGEncoder(output: try OutputFile(path: file, replace: false), width: width, height: height,
                                     format: .rgba8, icc: try Array(Data(contentsOf: URL(fileURLWithPath: adobeProfile))))
        try encoder.writeRows(of: image, rows: 0..<height)
        try encoder.finish()
        let r = try run([try emptyRecipe, file, path("rgba-srgb.png"), "--depth", "16", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let found = try PNGDecoder.decode(path: path("rgba-srgb.png")).samples()
        var worst = 0.0
        for i in 0..<(width * height) {
            let p = base + i * 4
            let expected = try adobeToSRGB([Double(p[0]), Double(p[1]), Double(p[2])].map { $0 / 255 })
            for c in 0..<3 { worst = max(worst, abs(expected[c] * 65535 - found[i * 4 + c])) }
            XCTAssertEqual(found[i * 4 + 3], Double(p[3]) * 257, accuracy: 0.5, "alpha at pixel \(i)")
        }
        XCTAssertLessThanOrEqual(worst, 257, "worst difference \(worst / 257) 8-bit codes")
    }

    /// Adobe RGB's saturated primaries lie outside sRGB: in linear sRGB they have negative components. Blurred and
    /// written back in the input's profile they come out as they went in — nothing was clipped on the way — on
    /// both backends, which agree.
    func testWideGamutColoursSurviveTheFilters() throws {
        let image = PixelBuffer(width: 24, height: 8, format: .rgb16)
        let base = try image.mutableHostBytes().assumingMemoryBound(to: UInt16.self)
        let patches: [[UInt16]] = [[0, 65535, 0], [65535, 0, 0], [0, 20000, 60000]]
        for y in 0..<8 { for x in 0..<24 { for c in 0..<3 { base[(y * 24 + x) * 3 + c] = patches[x / 8][c] } } }
        let file = path("wide.png")
        let encoder = try PNGEncoder(output: try OutputFile(path: file, replace: false), width: 24, height: 8, format: .rgb16,
                                     icc: try Array(Data(contentsOf: URL(fileURLWithPath: adobeProfile))))
        try encoder.writeRows(of: image, rows: 0..<8)
        try encoder.finish()
        let blur = try write("blur.json", #"{"version":1,"steps":[{"op":"gaussianBlur","sigma":0.8}]}"#)
        for backend in ["cpu", "vulkan"] {
            let out = path("kept-\(backend).png")
            let r = try run([blur, file, out, "--profile", "keep", "--backend", backend])
            if backend == "vulkan" && r.code == 4 { continue }  // no Vulkan device
            XCTAssertEqual(r.code, 0, r.stderr)
            let decoder = try PNGDecoder(path: out)
            XCTAssertNotNil(decoder.metadata.iccProfile, "the output carries the input's profile")
            let samples = try decoder.readAll().samples()
            for (k, patch) in patches.enumerated() {
                let centre = ((4 * 24) + k * 8 + 4) * 3
                // Within 2.5 8-bit codes: float32 working values meet the profile's pure 2.2 gamma curve, whose
                // slope near 0 is unbounded (clipping would move these by 60 to 145 codes).
                for c in 0..<3 { XCTAssertEqual(samples[centre + c], Double(patch[c]), accuracy: 640, "\(backend) patch \(k) channel \(c)") }
            }
        }
        // Written as sRGB (the default), the green is clipped to sRGB's gamut: its red goes to 0.
        XCTAssertEqual(try run([blur, file, path("srgb.png")]).code, 0)
        let srgb = try PNGDecoder.decode(path: path("srgb.png")).samples()
        XCTAssertEqual(srgb[(4 * 24 + 4) * 3], 0)
    }

    /// An untagged 4×4 RGB PNG of grey 128 (its IHDR ends at byte 33, where tests insert colour chunks).
    func neutralGreyPNG() throws -> [UInt8] {
        let image = PixelBuffer(width: 4, height: 4, format: .rgb8)
        let base = try image.mutableHostBytes()
        for i in 0..<(4 * 4 * 3) { base.storeBytes(of: UInt8(128), toByteOffset: i, as: UInt8.self) }
        try PNGEncoder.encode(image, to: path("plain.png"))
        return try Array(Data(contentsOf: URL(fileURLWithPath: path("plain.png"))))
    }

    /// The colour chunks by the PNG specification's precedence (iCCP, then sRGB, then cHRM/gAMA), whatever their
    /// order — libpng drops an iCCP that follows an sRGB chunk and keeps gAMA, which read the file as a pure 2.2
    /// power curve. Neutral grey 128: the Adobe-compatible profile (gamma 563/256) gives sRGB-encoded
    /// (128/255)^2.199, sRGB gives 128, gAMA 1.0 gives the sRGB encoding of 128/255.
    func testPNGColourChunksFollowTheSpecificationsPrecedence() throws {
        let plain = try neutralGreyPNG()
        let icc = try PNGChunks.iCCP(Array(Data(contentsOf: URL(fileURLWithPath: adobeProfile))))
        let damaged = PNGChunks.chunk("iCCP", Array("ICC profile".utf8) + [0, 0, 0x78, 0x9C, 1, 2, 3])
        let srgb = PNGChunks.chunk("sRGB", [0]), linear = PNGChunks.chunk("gAMA", [0, 1, 0x86, 0xA0])
        let adobe = (srgbEncode(pow(128.0 / 255, 563.0 / 256)) * 255).rounded()
        let gamma1 = (srgbEncode(128.0 / 255) * 255).rounded()
        let cases: [(String, [[UInt8]], Double, Bool)] = [
            ("srgb-iccp", [srgb, icc], adobe, false), ("iccp-srgb", [icc, srgb], adobe, false),
            ("srgb-gama", [srgb, linear], 128, false), ("gama-srgb", [linear, srgb], 128, false),
            ("iccp-gama", [icc, linear], adobe, false), ("gama-iccp", [linear, icc], adobe, false),
            ("gama", [linear], gamma1, false), ("none", [], 128, false),
            ("damaged-srgb", [damaged, srgb], 128, true), ("damaged-gama", [damaged, linear], gamma1, true),
        ]
        for (name, chunks, expected, warns) in cases {
            var bytes = plain
            bytes.insert(contentsOf: chunks.flatMap { $0 }, at: 33)
            try Data(bytes).write(to: URL(fileURLWithPath: path(name + ".png")))
            let r = try run([try emptyRecipe, path(name + ".png"), path(name + "-out.png")])
            XCTAssertEqual(r.code, 0, r.stderr)
            XCTAssertEqual(r.stderr.contains("iCCP chunk cannot be inflated"), warns, "\(name): \(r.stderr)")
            let found = try PNGDecoder.decode(path: path(name + "-out.png")).samples()
            XCTAssertEqual(found[0], expected, accuracy: 1, name)
        }
        XCTAssertNotEqual(adobe, 128)
        XCTAssertNotEqual(adobe, gamma1)
    }

    func testPNGGammaChunksAreHonouredAndOutputsAreTagged() throws {
        // A linear-light PNG (gAMA 1.0, no cHRM): mid-grey 128 is linear 0.502, sRGB-encoded 188.
        var bytes = try neutralGreyPNG()
        bytes.insert(contentsOf: PNGChunks.chunk("gAMA", [0, 1, 0x86, 0xA0]), at: 33)  // 100000 / 100000
        try Data(bytes).write(to: URL(fileURLWithPath: path("linear.png")))
        XCTAssertEqual(try run([try emptyRecipe, path("linear.png"), path("out.png")]).code, 0)
        let out = try PNGDecoder(path: path("out.png"))
        XCTAssertEqual(try out.readAll().samples()[0], (srgbEncode(128.0 / 255) * 255).rounded())
        XCTAssertTrue(out.metadata.declaresSRGB, "outputs are tagged sRGB")
    }

    func testDamagedProfilesNeverStopThePixels() throws {
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/baseline_420.jpg"))))
        let payload = Array("ICC_PROFILE".utf8) + [0, 1, 1] + Array(repeating: 0x41, count: 200)
        bytes.insert(contentsOf: [0xFF, 0xE2, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload, at: 2)
        try Data(bytes).write(to: URL(fileURLWithPath: path("bad-icc.jpg")))
        let r = try run([try emptyRecipe, path("bad-icc.jpg"), path("out.png")])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("bad-icc.jpg: the ICC segments add up to 200 bytes") && r.stderr.contains("read as sRGB"), r.stderr)
        XCTAssertTrue(try PixelDigest.packedBytes(PNGDecoder.decode(path: path("out.png")))
                      == PixelDigest.packedBytes(PNGDecoder.decode(path: Fixtures.path("jpeg/baseline_420.djpeg.png"))))
        // A bad --profile file is a usage error naming it.
        try Data("not a profile".utf8).write(to: URL(fileURLWithPath: path("bad.icc")))
        let bad = try run([try emptyRecipe, photo, path("o.png"), "--profile", path("bad.icc")])
        XCTAssertEqual(bad.code, 2)
        XCTAssertTrue(bad.stderr.contains("bad.icc"), bad.stderr)
        // A chosen profile is converted into and embedded; read back, the colours return to sRGB.
        XCTAssertEqual(try run([try emptyRecipe, photo, path("adobe.jpg"), "--profile", adobeProfile, "--quality", "100"]).code, 0)
        XCTAssertNotNil(try JPEGDecoder(path: path("adobe.jpg")).metadata.iccProfile)
        XCTAssertEqual(try run([try emptyRecipe, path("adobe.jpg"), path("back.png")]).code, 0)
        let a = try PNGDecoder.decode(path: photo).samples(), b = try PNGDecoder.decode(path: path("back.png")).samples()
        XCTAssertLessThan(zip(a, b).map { abs($0 - $1) }.reduce(0, +) / Double(a.count), 1.5)
    }
}

extension FilterRunTests {
    /// A CMYK JPEG with its CMYK profile (Ghostscript's PS CMYK, AGPL-3+) converts through the profile: within 1
    /// code of Little CMS as ImageMagick runs it (relative colorimetric with black-point compensation, the
    /// reference in the fixture), on both backends; converted without it the colours are 40+ codes off.
    func testCMYKProfilesConvertTheInks() throws {
        let srgb = path("srgb-space.json")
        try Data(#"{"version":1,"workingSpace":"srgb","steps":[{"op":"exposure","ev":0}]}"#.utf8).write(to: URL(fileURLWithPath: srgb))
        let expected = try PNGDecoder.decode(path: Fixtures.path("jpeg/cmyk_ps_profile.reference.png")).samples()
        for backend in ["cpu", "vulkan"] {
            let out = path("cmyk-\(backend).png")
            let r = try run([srgb, Fixtures.path("jpeg/cmyk_ps_profile.jpg"), out, "--backend", backend])
            if backend == "vulkan" && r.code == 4 { continue }  // no Vulkan device here
            XCTAssertEqual(r.code, 0, r.stderr)
            let found = try PNGDecoder.decode(path: out)
            XCTAssertEqual(found.format, .rgb8)
            let d = Difference.between(expected, try found.samples(), width: found.width, channels: 3)
            XCTAssertLessThanOrEqual(d.worst, 1, "\(backend): \(d)")
        }
        // Turned, the inks are moved as stored and converted after the turn: the same colours, turned.
        let turn = path("cmyk-turn.json"), turned = path("cmyk-turned.png")
        try Data(#"{"version":1,"workingSpace":"srgb","steps":[{"op":"rotate","degrees":90}]}"#.utf8).write(to: URL(fileURLWithPath: turn))
        XCTAssertEqual(try run([turn, Fixtures.path("jpeg/cmyk_ps_profile.jpg"), turned]).code, 0)
        let found = try PNGDecoder.decode(path: turned)
        let (w, h) = (found.height, found.width)  // the reference's size
        let upright = try found.samples()
        let back = (0..<w * h * 3).map { i -> Double in  // reference pixel (x, y) is the turned one at (h − 1 − y, x)
            let (x, y, c) = (i / 3 % w, i / 3 / w, i % 3)
            return upright[(x * h + (h - 1 - y)) * 3 + c]
        }
        XCTAssertLessThanOrEqual(Difference.between(expected, back, width: w, channels: 3).worst, 1)
        let plain = path("cmyk-plain.png")
        XCTAssertEqual(try run([srgb, Fixtures.path("jpeg/cmyk_ps_profile.jpg"), plain, "--ignore-profiles"]).code, 0)
        let naive = Difference.between(expected, try PNGDecoder.decode(path: plain).samples(), width: 163, channels: 3)
        XCTAssertGreaterThan(naive.worst, 40, "the profile changes these pixels")
        // Outputs are RGB: keeping a CMYK input's profile is refused with the way out, and nothing is written.
        let keep = try run([srgb, Fixtures.path("jpeg/cmyk_ps_profile.jpg"), path("keep.jpg"), "--profile", "keep"])
        XCTAssertEqual(keep.code, 2)
        XCTAssertTrue(keep.stderr.contains("CMYK") && keep.stderr.contains("--profile srgb"), keep.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("keep.jpg")))
    }
}
