import ColourProfiles
import FilterCore
import FilterRecipe
import JXLCodec
import Foundation
import PNGCodec
import TestSupport
import XCTest

/// HDR sources (BT.2100 PQ and HLG) against the published definitions, written here from the documents: SMPTE ST
/// 2084's EOTF, BT.2100's HLG inverse OETF and OOTF, BT.2408's 203 cd/m² reference white, and BT.2390's EETF
/// (section 5.4.1, the maxRGB variant) for SDR outputs; PQ outputs in AVIF read back to the same light.
final class HDRTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }
    func fixture(_ name: String) -> String { Fixtures.path("heif/" + name) }

    // MARK: The published definitions, float64.

    static func pqEOTF(_ e: Double) -> Double {
        let m1 = 0.1593017578125, m2 = 78.84375, c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875
        let p = pow(e, 1 / m2)
        return 10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    static func pqInverse(_ nits: Double) -> Double {
        let m1 = 0.1593017578125, m2 = 78.84375, c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875
        let y = pow(max(nits, 0) / 10000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    static func hlgInverseOETF(_ e: Double) -> Double {
        let a = 0.17883277, b = 0.28466892, c = 0.55991073
        return e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
    }

    /// BT.2390 5.4.1 with black 0 at both ends: source peak `lw`, target peak `lmax`, in cd/m².
    static func eetf(_ nits: Double, lw: Double, lmax: Double) -> Double {
        let e1 = min(pqInverse(nits) / pqInverse(lw), 1)
        let maxLum = pqInverse(lmax) / pqInverse(lw)
        let ks = 1.5 * maxLum - 0.5
        var e2 = e1
        if e1 >= ks {
            let t = (e1 - ks) / (1 - ks)
            e2 = (2 * pow(t, 3) - 3 * t * t + 1) * ks + (pow(t, 3) - 2 * t * t + t) * (1 - ks) + (-2 * pow(t, 3) + 3 * t * t) * maxLum
        }
        return pqEOTF(e2 * pqInverse(lw))
    }

    /// Linear BT.2020 → linear sRGB (both D65), from the primaries (SMPTE RP 177).
    static let bt2020ToSRGB: [[Double]] = {
        let d65 = (0.3127, 0.3290)
        let toXYZ = HEIFColourTests.rgbToXYZ([(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)], white: d65)
        let fromXYZ = HEIFColourTests.inverse(HEIFColourTests.rgbToXYZ([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)], white: d65))
        return (0..<3).map { r in (0..<3).map { c in (0..<3).reduce(0.0) { $0 + fromXYZ[r][$1] * toXYZ[$1][c] } } }
    }()

    static func times(_ m: [[Double]], _ v: [Double]) -> [Double] {
        (0..<3).map { r in (0..<3).reduce(0.0) { $0 + m[r][$1] * v[$1] } }
    }

    /// A PQ or HLG pixel (signals 0…1) as working light: linear sRGB primaries, 1.0 = 203 cd/m².
    static func working(_ signal: [Double], hlg: Bool) -> [Double] {
        var nits: [Double]
        if hlg {
            let scene = signal.map(hlgInverseOETF)
            let ys = 0.2627 * scene[0] + 0.6780 * scene[1] + 0.0593 * scene[2]
            nits = scene.map { 1000 * pow(ys, 0.2) * $0 }  // BT.2100's OOTF at 1000 cd/m²: gamma 1.2
        } else {
            nits = signal.map(pqEOTF)
        }
        return times(bt2020ToSRGB, nits.map { $0 / 203 })
    }

    // MARK: Curves.

    func testCurvesHoldTheirPublishedPoints() {
        // ST 2084: 0 and 10 000 cd/m² at the ends; BT.2408 table 1: 203 cd/m² at 58 % PQ, 1000 at 75 %.
        XCTAssertEqual(HDR.pqToNits(0), 0, accuracy: 1e-9)
        XCTAssertEqual(HDR.pqToNits(1), 10000, accuracy: 1e-6)
        XCTAssertEqual(HDR.nitsToPQ(203), 0.58, accuracy: 0.005)
        XCTAssertEqual(HDR.nitsToPQ(1000), 0.75, accuracy: 0.005)
        // BT.2100: HLG's OETF reaches 1 at scene light 1 and 0.5 at 1/12; BT.2408: 75 % HLG is 203 cd/m² on the
        // 1000 cd/m² display.
        XCTAssertEqual(HDR.sceneToHLG(1), 1, accuracy: 1e-6)
        XCTAssertEqual(HDR.hlgToScene(0.5), 1.0 / 12, accuracy: 1e-12)
        XCTAssertEqual(1000 * pow(HDR.hlgToScene(0.75), HDR.hlgGamma(peak: 1000)), 203, accuracy: 1.5)
        for i in 0...100 {
            let e = Double(i) / 100
            XCTAssertEqual(HDR.pqToNits(e), Self.pqEOTF(e), accuracy: 1e-9 * max(1, Self.pqEOTF(e)))
            XCTAssertEqual(HDR.nitsToPQ(HDR.pqToNits(e)), e, accuracy: 1e-6)  // c1^m2 ≈ 7e-7 at 0 (ST 2084)
            XCTAssertEqual(HDR.hlgToScene(e), Self.hlgInverseOETF(e), accuracy: 1e-7)
            XCTAssertEqual(HDR.sceneToHLG(HDR.hlgToScene(e)), e, accuracy: 1e-7)
        }
    }

    func testToneMapIsBT2390sEETF() {
        for (lw, lmax) in [(1000.0, 203.0), (4000, 203), (1000, 600), (10000, 100)] {
            let map = HDR.ToneMap(sourcePeak: lw, targetPeak: lmax)
            var previous = -1.0
            for i in 0...400 {
                let nits = lw * Double(i) / 400
                let mapped = map(nits)
                XCTAssertEqual(mapped, Self.eetf(nits, lw: lw, lmax: lmax), accuracy: 1e-6 * max(1, mapped), "\(lw)→\(lmax) at \(nits)")
                XCTAssertGreaterThanOrEqual(mapped, previous, "monotone")
                XCTAssertLessThanOrEqual(mapped, lmax + 1e-6)
                previous = mapped
            }
            XCTAssertEqual(map(lw), lmax, accuracy: 1e-6, "the source's peak lands on the target's")
            XCTAssertEqual(map(lw * 3), lmax, accuracy: 1e-6, "light above the grade is held at the peak")
        }
        // A target at least as bright as the source changes nothing.
        XCTAssertEqual(HDR.ToneMap(sourcePeak: 600, targetPeak: 1000)(450), 450)
        // The tabulated ratio the encoder applies stays within 1e-4 of the definition over 20 octaves.
        let sdr = SDRToneMap(sourcePeak: 1000)
        var worst = 0.0
        for i in 0...4000 {
            let x = pow(2, -14 + 20 * Double(i) / 4000)
            let expected = Self.eetf(x * 203, lw: 1000, lmax: 203) / 203
            worst = max(worst, abs(Double(sdr.ratio(Float(x))) * x - expected) / max(expected, 1e-3))
        }
        XCTAssertLessThan(worst, 1e-4)
        XCTAssertEqual(sdr.ratio(100) * 100, 1, accuracy: 1e-6, "far above the peak: SDR white")
    }

    // MARK: Decoding.

    func testPQAndHLGSamplesDecodeToTheirLight() throws {
        for hlg in [false, true] {
            let source = HDRSource(curve: hlg ? .hlg : .pq, primaries: 9)
            for space in WorkingSpace.allCases {
                let transform = try XCTUnwrap(HDRInputTransform(source, format: .rgba16, space: space))
                // Every 257th code on each channel, shifted so the three differ, with alpha 0.5.
                var codes = [UInt16]()
                for i in 0..<256 {
                    let code = i * 257
                    codes += [UInt16(code), UInt16((code + 9000) % 65536), UInt16((code + 30000) % 65536), 32768]
                }
                var out = [Float](repeating: 0, count: 256 * 4), scratch = [Float](repeating: 0, count: 256 * 3)
                codes.withUnsafeBytes { transform.convert($0.baseAddress!, into: &out, width: 256, scratch: &scratch) }
                var worst = 0.0
                for p in 0..<256 {
                    let alpha = 32768.0 / 65535
                    var expected = Self.working((0..<3).map { Double(codes[p * 4 + $0]) / 65535 }, hlg: hlg)
                    if space == .srgb { expected = expected.map { $0 < 0 ? -HEIFColourTests.encode(-$0) : HEIFColourTests.encode($0) } }
                    XCTAssertEqual(Double(out[p * 4 + 3]), alpha, accuracy: 1e-6)
                    for c in 0..<3 {
                        worst = max(worst, abs(Double(out[p * 4 + c]) - expected[c] * alpha) / max(1, abs(expected[c])))
                    }
                }
                XCTAssertLessThan(worst, 1e-5, "\(source.curve) \(space): off the published definition by \(worst)")
            }
        }
    }

    func testSDROutputsAreToneMappedByTheEETF() throws {
        for name in ["avif_pq_10bit_96x64.avif", "avif_hlg_10bit_96x64.avif", "avif_pq_clli4000_96x64.avif"] {
            let hlg = name.contains("hlg")
            // The grade's peak: MaxCLL where the file declares it, else the nominal 1000 cd/m².
            let peak = name.contains("clli4000") ? 4000.0 : 1000
            // The samples as coded (colour management off: read as they are), then rendered to a 16-bit PNG.
            var off = Renderer.Options()
            off.colourManagement = false
            let identity = try Image(input: "main").invert().invert().recipe
            let coded = scratch.appendingPathComponent(name + ".coded.png").path
            try Renderer(backend: .cpu, options: off).render(identity, inputs: ["main": fixture(name)], output: coded)
            let mapped = scratch.appendingPathComponent(name + ".png").path
            let report = try Renderer(backend: .cpu).render(identity, inputs: ["main": fixture(name)], output: mapped)
            XCTAssertTrue(report.warnings.contains { $0.contains("tone-mapped into SDR by BT.2390's EETF (graded peak \(Int(peak)) cd/m²") },
                          "\(report.warnings)")
            let a = try words(coded), b = try words(mapped)
            XCTAssertEqual(a.count, b.count)
            var worst = 0.0, compressed = 0
            for p in stride(from: 0, to: a.count, by: 3) {
                let light = Self.working((0..<3).map { Double(a[p + $0]) / 65535 }, hlg: hlg)
                let brightest = light.max()!
                let scale = brightest > 0 ? Self.eetf(brightest * 203, lw: peak, lmax: 203) / 203 / brightest : 1
                if scale < 0.999 { compressed += 1 }
                for c in 0..<3 {
                    let expected = 65535 * HEIFColourTests.encode(min(max(light[c] * scale, 0), 1))
                    worst = max(worst, abs(expected - Double(b[p + c])))
                }
            }
            XCTAssertLessThanOrEqual(worst, 16, "\(name): off BT.2390 by \(worst) of 65535")
            XCTAssertGreaterThan(compressed, a.count / 3 / 10, "\(name): the highlights were rolled off")
        }
    }

    func testPQOutputKeepsTheLightAndIsDeclared() throws {
        // The fixture's light (SDR codes read as PQ: up to ~7000 cd/m²) a stop darker, so it stays under PQ's
        // 10 000 cd/m² ceiling; highlights far above SDR white, written as 12-bit PQ AVIF, read back.
        let brighter = try Image(input: "main").exposure(ev: -1).recipe
        var twelve = Renderer.Options()
        twelve.avif = AVIFWriteOptions(lossless: true, bitDepth: 12)
        let hdr = scratch.appendingPathComponent("bright.avif").path
        let written = try Renderer(backend: .cpu, options: twelve).render(brighter, inputs: ["main": fixture("avif_pq_10bit_96x64.avif")], output: hdr)
        XCTAssertTrue(written.warnings.contains { $0.contains("written as HDR: BT.2100 PQ on BT.2020") }, "\(written.warnings)")
        let explained = try Renderer(backend: .cpu).explain(try Image(input: "main").invert().recipe, inputs: ["main": hdr])
        XCTAssertTrue(explained.contains("HDR (BT.2100 PQ, H.273 primaries 9)"), explained)
        // Keeping the input's colour keeps it HDR too; asking for an SDR profile tone-maps into it and says why.
        var keep = twelve
        keep.outputProfile = .keepInput
        let kept = try Renderer(backend: .cpu, options: keep).render(brighter, inputs: ["main": fixture("avif_pq_10bit_96x64.avif")],
                                                                      output: scratch.appendingPathComponent("kept.avif").path)
        XCTAssertTrue(kept.warnings.contains { $0.contains("written as HDR") }, "\(kept.warnings)")
        var other = twelve
        other.outputProfile = .profile(try ColourProfile(contentsOfFile: Fixtures.path("jpeg/compatibleWithAdobeRGB1998.icc")))
        let mapped = try Renderer(backend: .cpu, options: other).render(brighter, inputs: ["main": fixture("avif_pq_10bit_96x64.avif")],
                                                                         output: scratch.appendingPathComponent("adobe.avif").path)
        XCTAssertTrue(mapped.warnings.contains { $0.contains("tone-mapped into SDR") && $0.contains("the output profile asked for is SDR") },
                      "\(mapped.warnings)")
        // Both to SDR the same way: the file read back and the render made directly agree within 12-bit PQ steps.
        let identity = try Image(input: "main").invert().invert().recipe
        let back = scratch.appendingPathComponent("back.png").path, direct = scratch.appendingPathComponent("direct.png").path
        try Renderer(backend: .cpu).render(identity, inputs: ["main": hdr], output: back)
        try Renderer(backend: .cpu).render(brighter, inputs: ["main": fixture("avif_pq_10bit_96x64.avif")], output: direct)
        let a = try words(back), b = try words(direct)
        XCTAssertEqual(a.count, b.count)
        XCTAssertLessThanOrEqual(zip(a, b).map { abs($0 - $1) }.max() ?? .max, 160, "PQ round trip")
        XCTAssertGreaterThan(b.filter { $0 > 60000 }.count, b.count / 50, "some light reached the top of SDR")
    }

    /// JPEG XL at 16 bits carries PQ as AVIF does: declared by code points (jxlinfo reads them), read back as HDR
    /// by them, and to SDR the same as the direct render (lossless: 12 of 65 535 measured); at 8 bits it is tone-mapped
    /// and the note says how to keep it HDR.
    func testPQJPEGXLKeepsTheLightAndReadsBackAsHDR() throws {
        let brighter = try Image(input: "main").exposure(ev: -1).recipe
        var lossless = Renderer.Options()
        lossless.jxl = JXLWriteOptions(lossless: true)
        let jxl = scratch.appendingPathComponent("bright.jxl").path
        let written = try Renderer(backend: .cpu, options: lossless).render(brighter, inputs: ["main": fixture("avif_pq_10bit_96x64.avif")], output: jxl)
        XCTAssertTrue(written.warnings.contains { $0.contains("written as HDR: BT.2100 PQ on BT.2020 primaries at 16 bits") }, "\(written.warnings)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/jxlinfo") {
            let process = Process(), pipe = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/jxlinfo")
            process.arguments = [jxl]
            process.standardOutput = pipe
            try process.run()
            let info = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertTrue(info.contains("Rec.2100 primaries, PQ transfer function"), info)
        }
        let explained = try Renderer(backend: .cpu).explain(try Image(input: "main").invert().recipe, inputs: ["main": jxl])
        XCTAssertTrue(explained.contains("HDR (BT.2100 PQ, H.273 primaries 9)"), explained)
        let identity = try Image(input: "main").invert().invert().recipe
        let back = scratch.appendingPathComponent("back.png").path, direct = scratch.appendingPathComponent("direct.png").path
        try Renderer(backend: .cpu).render(identity, inputs: ["main": jxl], output: back)
        try Renderer(backend: .cpu).render(brighter, inputs: ["main": fixture("avif_pq_10bit_96x64.avif")], output: direct)
        let a = try words(back), b = try words(direct)
        XCTAssertEqual(a.count, b.count)
        XCTAssertLessThanOrEqual(zip(a, b).map { abs($0 - $1) }.max() ?? .max, 64, "PQ round trip through JPEG XL")
        // At 8 bits: tone-mapped, saying how to keep it HDR.
        var eight = lossless
        eight.depth = 8
        let sdr = try Renderer(backend: .cpu, options: eight).render(brighter, inputs: ["main": fixture("avif_pq_10bit_96x64.avif")],
                                                                      output: scratch.appendingPathComponent("sdr.jxl").path)
        XCTAssertTrue(sdr.warnings.contains { $0.contains("tone-mapped into SDR") && $0.contains("keeps it HDR") }, "\(sdr.warnings)")
    }

    func testBothBackendsAndBothWorkingSpacesAgree() throws {
        let name = "avif_hlg_10bit_96x64.avif"
        var results = [[Int]]()
        for (backend, space) in [(Backend.cpu, WorkingSpace.linear), (.vulkan, .linear), (.cpu, .srgb)] {
            var image = try Image(input: "main")
            image.workingSpace = space
            let recipe = try image.gaussianBlur(sigma: 1.5).recipe
            let path = scratch.appendingPathComponent("\(backend)-\(space).png").path
            try Renderer(backend: backend).render(recipe, inputs: ["main": fixture(name)], output: path)
            results.append(try words(path))
        }
        XCTAssertLessThanOrEqual(zip(results[0], results[1]).map { abs($0 - $1) }.max() ?? .max, 8, "CPU ≡ Vulkan")
        // Blurring sRGB-encoded values differs from blurring light; the tone map itself must not add to that.
        let flat = try Image(input: "main").invert().invert()
        var srgb = flat
        srgb.workingSpace = .srgb
        let one = scratch.appendingPathComponent("linear.png").path, two = scratch.appendingPathComponent("srgb.png").path
        try Renderer(backend: .cpu).render(flat.recipe, inputs: ["main": fixture(name)], output: one)
        try Renderer(backend: .cpu).render(try srgb.recipe, inputs: ["main": fixture(name)], output: two)
        XCTAssertLessThanOrEqual(zip(try words(one), try words(two)).map { abs($0 - $1) }.max() ?? .max, 8)
    }

    func words(_ path: String) throws -> [Int] {
        let bytes = [UInt8](try PNGDecoder.decode(path: path).packedData())
        return stride(from: 0, to: bytes.count, by: 2).map { Int(bytes[$0]) | Int(bytes[$0 + 1]) << 8 }
    }
}
