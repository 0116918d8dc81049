import FilterRecipe
import Foundation
import PNGCodec
import TestSupport
import XCTest

/// HEIF and AVIF colour through the renderer: nclx code points become a conversion checked against the published
/// definitions (ITU-T H.273's primaries, IEC 61966-2-1's curve, the primaries' RGB→XYZ matrices from SMPTE RP 177),
/// and outputs in AVIF keep what was asked of them (HDR curves: `HDRTests`).
final class HEIFColourTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }
    func fixture(_ name: String) -> String { Fixtures.path("heif/" + name) }
    let identity = try! Image(input: "main").invert().invert().recipe

    func render(_ input: String, _ name: String, options: Renderer.Options = Renderer.Options()) throws -> (report: RenderReport, path: String) {
        let output = scratch.appendingPathComponent(name).path
        let report = try Renderer(backend: .cpu, options: options).render(identity, inputs: ["main": input], output: output)
        return (report, output)
    }

    func samples(_ path: String) throws -> [UInt8] { [UInt8](try PNGDecoder.decode(path: path).packedData()) }

    /// RGB → XYZ for primaries and white given as x, y (SMPTE RP 177), in float64.
    static func rgbToXYZ(_ p: [(Double, Double)], white: (Double, Double)) -> [[Double]] {
        func xyz(_ c: (Double, Double)) -> [Double] { [c.0 / c.1, 1, (1 - c.0 - c.1) / c.1] }
        let m = [xyz(p[0]), xyz(p[1]), xyz(p[2])]  // columns
        let w = xyz(white)
        // Solve m · s = w for the scales s (Cramer's rule).
        func det(_ a: [[Double]]) -> Double {
            a[0][0] * (a[1][1] * a[2][2] - a[2][1] * a[1][2]) - a[1][0] * (a[0][1] * a[2][2] - a[2][1] * a[0][2])
                + a[2][0] * (a[0][1] * a[1][2] - a[1][1] * a[0][2])
        }
        let d = det(m)
        let s = (0..<3).map { i -> Double in var c = m; c[i] = w; return det(c) / d }
        return (0..<3).map { row in (0..<3).map { col in m[col][row] * s[col] } }
    }

    static func inverse(_ a: [[Double]]) -> [[Double]] {
        let d = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        return [[(a[1][1] * a[2][2] - a[1][2] * a[2][1]) / d, (a[0][2] * a[2][1] - a[0][1] * a[2][2]) / d, (a[0][1] * a[1][2] - a[0][2] * a[1][1]) / d],
                [(a[1][2] * a[2][0] - a[1][0] * a[2][2]) / d, (a[0][0] * a[2][2] - a[0][2] * a[2][0]) / d, (a[0][2] * a[1][0] - a[0][0] * a[1][2]) / d],
                [(a[1][0] * a[2][1] - a[1][1] * a[2][0]) / d, (a[0][1] * a[2][0] - a[0][0] * a[2][1]) / d, (a[0][0] * a[1][1] - a[0][1] * a[1][0]) / d]]
    }

    static func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func encode(_ l: Double) -> Double { l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055 }

    func testDisplayP3CodePointsConvertToSRGB() throws {
        // The samples as coded (colour management off), then as converted.
        var off = Renderer.Options()
        off.colourManagement = false
        let coded = try samples(try render(fixture("avif_p3_96x64.avif"), "coded.png", options: off).path)
        let converted = try samples(try render(fixture("avif_p3_96x64.avif"), "converted.png").path)
        let d65 = (0.3127, 0.3290)
        let p3 = Self.rgbToXYZ([(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], white: d65)
        let srgb = Self.inverse(Self.rgbToXYZ([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)], white: d65))
        var worst = 0.0, moved = 0
        for p in stride(from: 0, to: coded.count, by: 3) {
            let linear = (0..<3).map { Self.decode(Double(coded[p + $0]) / 255) }
            let xyz = (0..<3).map { r in (0..<3).reduce(0.0) { $0 + p3[r][$1] * linear[$1] } }
            for c in 0..<3 {
                let l = (0..<3).reduce(0.0) { $0 + srgb[c][$1] * xyz[$1] }
                let expected = 255 * Self.encode(min(max(l, 0), 1))
                worst = max(worst, abs(expected - Double(converted[p + c])))
                if converted[p + c] != coded[p + c] { moved += 1 }
            }
        }
        XCTAssertLessThanOrEqual(worst, 1.0, "P3 → sRGB off the published definition by \(worst) codes")
        XCTAssertGreaterThan(moved, coded.count / 4, "the conversion moved most samples")
    }

    func testAVIFOutputsAndTheHEICRefusal() throws {
        // HEIC in, AVIF out at 8 and 12 bits; 16-bit results say when they are reduced.
        let (report, path) = try render(fixture("heic_q80_96x64.heic"), "out.avif")
        XCTAssertTrue(report.warnings.isEmpty, "\(report.warnings)")
        XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(12).suffix(4) == Data("avif".utf8))
        let deep = Fixtures.path("photos/kleiber_crop_320x240_rgb16.png")
        let reduced = try render(deep, "deep8.avif").report
        XCTAssertTrue(reduced.warnings.contains { $0.contains("AVIF is written at 8 bits") }, "\(reduced.warnings)")
        var twelve = Renderer.Options()
        twelve.avif = AVIFWriteOptions(lossless: true, bitDepth: 12)
        XCTAssertTrue(try render(deep, "deep12.avif", options: twelve).report.warnings.isEmpty)
        // The 12-bit file, read back to a 16-bit PNG, is the source within a 12-bit step.
        let back = try render(scratch.appendingPathComponent("deep12.avif").path, "back.png").path
        let a = try samples(back), b = try samples(render(deep, "direct.png").path)
        let words = { (x: [UInt8]) in stride(from: 0, to: x.count, by: 2).map { Int(x[$0]) | Int(x[$0 + 1]) << 8 } }
        XCTAssertEqual(a.count, b.count)
        XCTAssertLessThanOrEqual(zip(words(a), words(b)).map { abs($0 - $1) }.max() ?? 0, 24)
        // HEIC is read, never written; the message names the way out.
        XCTAssertThrowsError(try render(fixture("heic_q80_96x64.heic"), "out.heic")) { error in
            XCTAssertTrue("\(error)".contains("HEIC is read but not written"), "\(error)")
            XCTAssertTrue("\(error)".contains(".avif"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("out.heic").path))
    }
}
