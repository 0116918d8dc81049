import FilterCore
import FilterRecipe
import JXLCodec
import Foundation
import PNGCodec
import TestSupport
import TIFFCodec
import XCTest

/// Float TIFFs through the renderer: read as linear light and kept unclamped through the recipe; written as float
/// (asked with depth 32, or by default when a float TIFF becomes a TIFF), linear light on sRGB primaries; other
/// outputs encoded from the same light (IEC 61966-2-1's curve, clamped once). Expected values come from the
/// fixtures' stored samples (`.expected.f32`, computed by scripts/make-tiff-float-fixtures.py) in float64.
final class FloatTIFFRenderTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }
    func fixture(_ name: String) -> String { Fixtures.path("tiff/" + name) }
    func out(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    func stored(_ name: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture(name + ".expected.f32")))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// A float TIFF's samples (straight) and its layout.
    func readFloats(_ path: String) throws -> (samples: [Float], storedFormat: PixelFormat) {
        let decoder = try TIFFDecoder(path: path)
        XCTAssertTrue(decoder.storesFloats, path)
        let rgba = [UInt8](try decoder.readAll().packedData()).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let channels = decoder.storedFormat.channels
        var samples = [Float]()
        for p in stride(from: 0, to: rgba.count, by: 4) {
            let a = rgba[p + 3], straight = (0..<3).map { a > 0 ? rgba[p + $0] / a : 0 }
            switch channels {
            case 1: samples.append(straight[0])
            case 2: samples += [straight[0], a]
            case 3: samples += straight
            default: samples += straight + [a]
            }
        }
        return (samples, decoder.storedFormat)
    }

    static func encode(_ l: Double) -> Double { l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055 }
    static func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }

    func testFloatToFloatKeepsEverySample() throws {
        for space in WorkingSpace.allCases {
            var image = Image(input: "main")
            image.workingSpace = space
            let recipe = try image.invert().invert().recipe
            for name in ["rgb32f_deflate_fp.tif", "rgba32f_unassociated.tif", "grey64f.tif"] {
                let path = out("\(space)-\(name)")
                try Renderer(backend: .cpu).render(recipe, inputs: ["main": fixture(name)], output: path)
                let (samples, layout) = try readFloats(path)
                let expected = try stored(name)
                XCTAssertEqual(layout.channels, name.hasPrefix("grey") ? 1 : name.hasPrefix("rgba") ? 4 : 3, name)
                XCTAssertEqual(samples.count, expected.count, name)
                // Colour divided by alpha and multiplied back, and (sRGB working space) encoded and decoded.
                let worst = zip(samples, expected).map { abs($0 - $1) / max(1, abs($1)) }.max() ?? .infinity
                XCTAssertLessThan(worst, 2e-6, "\(space) \(name)")
                XCTAssertGreaterThan(samples.max() ?? 0, 1.2, "highlights above 1 written as they are")
            }
        }
    }

    /// A float TIFF with an ICC profile (Adobe RGB (1998): gamma 563/256, its primaries, D65) goes through it: the
    /// float output is the published conversion of the stored samples, highlights above 1 included (Little CMS's
    /// pure-gamma curve maps negative samples to 0, so those are left out).
    func testAProfiledFloatTIFFConvertsThroughItsProfile() throws {
        let path = out("adobe.tif")
        try Renderer(backend: .cpu).render(try Image(input: "main").invert().invert().recipe,
                                           inputs: ["main": fixture("rgb32f_adobergb_icc.tif")], output: path)
        let got = try readFloats(path).samples, stored = try stored("rgb32f_deflate_fp.tif")
        let d65 = (0.3127, 0.3290)
        let adobe = HEIFColourTests.rgbToXYZ([(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)], white: d65)
        let srgb = HEIFColourTests.inverse(HEIFColourTests.rgbToXYZ([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)], white: d65))
        var worst = 0.0, compared = 0, bright = 0
        for p in stride(from: 0, to: stored.count, by: 3) where (0..<3).allSatisfy({ stored[p + $0] >= 0 }) {
            let linear = (0..<3).map { pow(Double(stored[p + $0]), 563.0 / 256) }
            let xyz = (0..<3).map { r in (0..<3).reduce(0.0) { $0 + adobe[r][$1] * linear[$1] } }
            for c in 0..<3 {
                let expected = (0..<3).reduce(0.0) { $0 + srgb[c][$1] * xyz[$1] }
                worst = max(worst, abs(Double(got[p + c]) - expected) / max(1, abs(expected)))
                if expected > 1.2 { bright += 1 }
            }
            compared += 1
        }
        XCTAssertGreaterThan(compared, stored.count / 3 / 2)
        XCTAssertGreaterThan(bright, 0, "highlights above 1 were compared")
        XCTAssertLessThan(worst, 2e-4, "off the published conversion by \(worst)")
    }

    func testHighlightsSurviveTheRecipeAndOtherOutputsClampOnce() throws {
        // Two stops down brings the fixture's highlights (up to 3.2) back under 1 in a 16-bit PNG: nothing was
        // clipped on the way in.
        let recipe = try Image(input: "main").exposure(ev: -2).recipe
        let png = out("down.png")
        try Renderer(backend: .cpu).render(recipe, inputs: ["main": fixture("rgb32f_deflate_fp.tif")], output: png)
        let buffer = try PNGDecoder.decode(path: png)
        XCTAssertEqual(buffer.format, .rgb16, "a float input gives 16-bit outputs")
        let bytes = [UInt8](try buffer.packedData())
        let words = stride(from: 0, to: bytes.count, by: 2).map { Double(Int(bytes[$0]) | Int(bytes[$0 + 1]) << 8) }
        let expected = try stored("rgb32f_deflate_fp.tif").map { 65535 * Self.encode(min(max(Double($0) / 4, 0), 1)) }
        XCTAssertLessThanOrEqual(zip(words, expected).map { abs($0 - $1) }.max() ?? .infinity, 1.0)
        XCTAssertGreaterThan(words.max() ?? 0, 0.75 * 65535)
    }

    func testEightBitInputWrittenAsFloatIsItsLight() throws {
        var options = Renderer.Options()
        options.depth = 32
        let path = out("light.tif")
        try Renderer(backend: .cpu, options: options).render(try Image(input: "main").invert().invert().recipe,
                                                             inputs: ["main": fixture("rgb8.expected.png")], output: path)
        let (samples, layout) = try readFloats(path)
        XCTAssertEqual(layout.channels, 3)
        let codes = [UInt8](try PNGDecoder.decode(path: fixture("rgb8.expected.png")).packedData())
        let worst = zip(samples, codes).map { abs(Double($0) - Self.decode(Double($1) / 255)) }.max() ?? .infinity
        XCTAssertLessThan(worst, 1e-6)
    }

    /// Float JPEG XL out: the same floats as a float TIFF of the same render (linear sRGB declared, highlights above 1
    /// kept), lossless exactly, read back by us and (colour) by libjxl's own djxl; lossy (quality 95) within 0.5 % of
    /// the brightest sample on average and 10 % at worst; by default when the input stores floats, as for TIFF.
    func testFloatJPEGXLHoldsWhatAFloatTIFFHolds() throws {
        let recipe = try Image(input: "main").gamma(power: 1.2).recipe
        for name in ["rgb32f_deflate_fp.tif", "rgba32f_unassociated.tif"] {
            let tiff = out(name), jxl = out(name + ".jxl"), lossy = out(name + ".lossy.jxl")
            var options = Renderer.Options()
            options.jxl = JXLWriteOptions(lossless: true)
            try Renderer(backend: .cpu).render(recipe, inputs: ["main": fixture(name)], output: tiff)
            try Renderer(backend: .cpu, options: options).render(recipe, inputs: ["main": fixture(name)], output: jxl)
            options.jxl = JXLWriteOptions(quality: 95)
            try Renderer(backend: .cpu, options: options).render(recipe, inputs: ["main": fixture(name)], output: lossy)
            let (expected, layout) = try readFloats(tiff)
            XCTAssertGreaterThan(expected.max() ?? 0, 1.2, "highlights above 1")
            let decoder = try JXLDecoder(path: jxl)
            XCTAssertTrue(decoder.storesFloats, name)
            XCTAssertEqual(decoder.format.channels, 4)
            XCTAssertEqual(decoder.storedFormat.channels, layout.channels, name)
            var tiffColour = [Float]()
            for p in 0..<(expected.count / layout.channels) { tiffColour += expected[(p * layout.channels)..<(p * layout.channels + 3)] }
            // Ours read back: the TIFF's samples (colour and alpha).
            let ours = [UInt8](try decoder.readAll().packedData()).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            var straight = [Float]()
            for p in stride(from: 0, to: ours.count, by: 4) {
                let a = ours[p + 3]
                straight += (0..<3).map { a > 0 ? ours[p + $0] / a : 0 } + (layout.channels == 4 ? [a] : [])
            }
            XCTAssertEqual(straight, expected, "\(name): lossless float JPEG XL read back")
            if layout.channels == 3 {
                // djxl's decoding, rows bottom first.
                let pfm = out(name + ".pfm")
                try ExternalTool.run("djxl", [jxl, pfm, "--quiet"], package: "libjxl-tools")
                let data = try Data(contentsOf: URL(fileURLWithPath: pfm))
                var newlines = 0, start = 0
                for (i, byte) in data.enumerated() where byte == 10 { newlines += 1; if newlines == 3 { start = i + 1; break } }
                // A positive scale says big-endian samples.
                let bigEndian = !String(decoding: data.prefix(start), as: UTF8.self).contains("-")
                let values = data[start...].withUnsafeBytes { raw in
                    raw.bindMemory(to: UInt32.self).map { Float(bitPattern: bigEndian ? UInt32(bigEndian: $0) : $0) }
                }
                let w = decoder.width, h = values.count / 3 / w
                var colour = [Float]()
                for y in (0..<h).reversed() { colour += values[(y * w * 3)..<((y + 1) * w * 3)] }
                XCTAssertEqual(colour, tiffColour, "\(name): djxl decodes the float TIFF's colour")
            }
            let read = try JXLDecoder(path: lossy).readAll()
            let floats = [UInt8](try read.packedData()).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            var worst: Float = 0, sum: Float = 0, count = 0
            for p in 0..<(floats.count / 4) where floats[4 * p + 3] > 0.1 {
                for c in 0..<3 {
                    let error = abs(floats[4 * p + c] / floats[4 * p + 3] - tiffColour[3 * p + c])
                    (worst, sum, count) = (max(worst, error), sum + error, count + 1)
                }
            }
            // XYB quantises by what the eye sees: highlights four times white get coarser steps than shadows.
            let peak = expected.max() ?? 1
            XCTAssertGreaterThan(count, 1000, name)
            XCTAssertLessThan(sum / Float(max(1, count)), 0.005 * peak, "\(name): lossy float JPEG XL, mean error")
            XCTAssertLessThan(worst, 0.1 * peak, "\(name): lossy float JPEG XL, worst sample")
        }
    }

    func testFloatOutputIsRefusedWhereItCannotBeWritten() throws {
        var options = Renderer.Options()
        options.depth = 32
        let recipe = try Image(input: "main").invert().recipe
        XCTAssertThrowsError(try Renderer(backend: .cpu, options: options).render(recipe, inputs: ["main": fixture("rgb8.expected.png")],
                                                                                output: out("float.png"))) { error in
            XCTAssertTrue("\(error)".contains("32-bit float output is written as TIFF or JPEG XL only"), "\(error)")
        }
        options.outputProfile = .profile(try ColourProfile(contentsOfFile: Fixtures.path("jpeg/compatibleWithAdobeRGB1998.icc")))
        XCTAssertThrowsError(try Renderer(backend: .cpu, options: options).render(recipe, inputs: ["main": fixture("rgb8.expected.png")],
                                                                                output: out("profiled.tif"))) { error in
            XCTAssertTrue("\(error)".contains("a float TIFF is written as linear light on sRGB primaries"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out("float.png")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out("profiled.tif")))
        options.depth = 64
        XCTAssertThrowsError(try Renderer(backend: .cpu, options: options).render(recipe, inputs: ["main": fixture("rgb8.expected.png")],
                                                                                output: out("deep.tif"))) { error in
            XCTAssertTrue("\(error)".contains("8, 16 or 32"), "\(error)")
        }
    }

    func testBothBackendsReadFloats() throws {
        let recipe = try Image(input: "main").gaussianBlur(sigma: 1.5).recipe
        var results = [[Float]]()
        for backend in [Backend.cpu, .vulkan] {
            let path = out("\(backend).tif")
            try Renderer(backend: backend).render(recipe, inputs: ["main": fixture("rgba32f_unassociated.tif")], output: path)
            results.append(try readFloats(path).samples)
        }
        XCTAssertEqual(results[0].count, results[1].count)
        XCTAssertLessThan(zip(results[0], results[1]).map { abs($0 - $1) }.max() ?? .infinity, 2e-3, "CPU ≡ Vulkan")
    }

    func testHDRLightIsWrittenUntonedAsFloat() throws {
        // A PQ file into a float TIFF: no tone map, the decoded light itself (1.0 = 203 cd/m²).
        let path = out("hdr16.tif")
        let report = try Renderer(backend: .cpu).render(try Image(input: "main").invert().invert().recipe,
                                                        inputs: ["main": Fixtures.path("heif/avif_pq_10bit_96x64.avif")],
                                                        output: path)
        // No float TIFF unless asked: a 10-bit AVIF follows at 16 bits, tone-mapped.
        XCTAssertTrue(report.warnings.contains { $0.contains("tone-mapped") }, "\(report.warnings)")
        XCTAssertFalse(try TIFFDecoder(path: path).storesFloats)
        var options = Renderer.Options()
        options.depth = 32
        let float = out("hdr32.tif")
        let floatReport = try Renderer(backend: .cpu, options: options).render(
            try Image(input: "main").invert().invert().recipe, inputs: ["main": Fixtures.path("heif/avif_pq_10bit_96x64.avif")], output: float)
        XCTAssertFalse(floatReport.warnings.contains { $0.contains("tone-mapped") }, "\(floatReport.warnings)")
        XCTAssertGreaterThan(try readFloats(float).samples.max() ?? 0, 5, "PQ light far above SDR white, unclamped")
    }
}
