import FilterCore
import Foundation
import JXLCodec
import PNGCodec
import TestSupport
import XCTest

/// JPEG XL in and out, checked against libjxl's own tools (djxl decodes, cjxl made the fixtures): every variant
/// decodes to djxl's pixels, lossless ones to their sources, round trips keep pixels (lossless) or stay within a
/// PSNR floor (lossy), and damaged files give errors, never traps.
final class JXLCodecTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    func fixture(_ name: String) -> String { Fixtures.path("jxl/" + name) }

    func ours(_ path: String, limits: DecodeLimits = DecodeLimits()) throws -> (decoder: JXLDecoder, samples: [UInt8]) {
        let decoder = try JXLDecoder(path: path, limits: limits)
        return (decoder, [UInt8](try decoder.readAll().packedData()))
    }

    func png(_ path: String) throws -> (format: PixelFormat, samples: [UInt8]) {
        let decoder = try PNGDecoder(path: path)
        return (decoder.format, [UInt8](try decoder.readAll().packedData()))
    }

    /// djxl's decoding, read back from its PNG.
    func djxl(_ path: String) throws -> (format: PixelFormat, samples: [UInt8]) {
        let out = scratch.appendingPathComponent(UUID().uuidString + ".png").path
        try ExternalTool.run("djxl", [path, out, "--quiet"], package: "libjxl-tools")
        return try png(out)
    }

    func testEveryVariantDecodesToDjxlsPixels() throws {
        for (name, size, format) in [("lossy_q90_96x64.jxl", [96, 64], PixelFormat.rgb8),
                                     ("lossless_96x64.jxl", [96, 64], .rgb8),
                                     ("alpha_lossless_96x64.jxl", [96, 64], .rgba8),
                                     ("deep16_lossless_96x64.jxl", [96, 64], .rgb16),
                                     ("grey_96x64.jxl", [96, 64], .grey8),
                                     ("container_96x64.jxl", [96, 64], .rgb8),
                                     ("recompressed_jpeg.jxl", [163, 109], .rgb8)] {
            let (decoder, samples) = try ours(fixture(name))
            XCTAssertEqual([decoder.width, decoder.height], size, name)
            XCTAssertEqual(decoder.format, format, name)
            let reference = try djxl(fixture(name))
            XCTAssertEqual(reference.format, format, name)
            if name.hasPrefix("lossy") || name.hasPrefix("container") || name.hasPrefix("recompressed") {
                // Lossy decodes may differ by libjxl's dithering of its float output to 8 bits: within one code.
                XCTAssertEqual(samples.count, reference.samples.count, name)
                XCTAssertLessThanOrEqual(zip(samples, reference.samples).map { abs(Int($0) - Int($1)) }.max() ?? 0, 1, name)
            } else {
                XCTAssertTrue(samples == reference.samples, "\(name): pixels differ from djxl's")
            }
        }
        // Lossless files are their sources.
        for (name, source) in [("lossless_96x64.jxl", "rgb8_96x64.source.png"), ("alpha_lossless_96x64.jxl", "rgba8_96x64.source.png"),
                               ("deep16_lossless_96x64.jxl", "rgb16_96x64.source.png")] {
            XCTAssertTrue(try ours(fixture(name)).samples == png(Fixtures.path("heif/" + source)).samples, name)
        }
    }

    func encode(_ source: PixelBuffer, options: JXLWriteOptions, icc: [UInt8]? = nil, name: String) throws -> String {
        let path = scratch.appendingPathComponent(name).path
        let encoder = try JXLEncoder(output: try OutputFile(path: path, replace: false), width: source.width,
                                     height: source.height, format: source.format, options: options, icc: icc)
        try encoder.writeRows(try source.hostBytes(), stride: source.rowStride, count: source.height)
        try encoder.finish()
        return path
    }

    func testRoundTripsKeepPixelsOrStayWithinThePSNRTable() throws {
        for source in ["heif/rgb8_96x64.source.png", "heif/rgba8_96x64.source.png", "heif/rgb16_96x64.source.png",
                       "photos/camera_512_gray8.png"] {
            let image = try PNGDecoder.decode(path: Fixtures.path(source))
            let path = try encode(image, options: JXLWriteOptions(lossless: true), name: "lossless.jxl")
            let (decoder, samples) = try ours(path)
            XCTAssertEqual(decoder.format, image.format, source)
            XCTAssertTrue(samples == [UInt8](try image.packedData()), "\(source): lossless changed pixels")
            XCTAssertTrue(try djxl(path).samples == samples, "\(source): djxl disagrees")
            try FileManager.default.removeItem(atPath: path)
        }
        let photo = try PNGDecoder.decode(path: Fixtures.path("photos/chelsea_451x300_rgb8.png"))
        let source = [UInt8](try photo.packedData())
        var sizes = [Int]()
        for (quality, floor) in [(50, 30.0), (75, 33.0), (95, 40.0)] {
            let path = try encode(photo, options: JXLWriteOptions(quality: quality), name: "q\(quality).jxl")
            let decoded = try djxl(path).samples
            let mse = zip(source, decoded).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) } / Double(source.count)
            let db = 10 * log10(255 * 255 / mse)
            XCTAssertGreaterThan(db, floor, "quality \(quality): \(db) dB")
            sizes.append(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0)
        }
        XCTAssertEqual(sizes, sizes.sorted(), "higher quality, larger file: \(sizes)")
        let icc = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/compatibleWithAdobeRGB1998.icc"))))
        let tagged = try encode(photo, options: JXLWriteOptions(lossless: true), icc: icc, name: "tagged.jxl")
        XCTAssertNotNil(try JXLDecoder(path: tagged).metadata.iccProfile)
        XCTAssertThrowsError(try JXLEncoder(output: try OutputFile(path: scratch.appendingPathComponent("x.jxl").path, replace: false),
                                            width: 4, height: 4, format: .rgb8, options: JXLWriteOptions(effort: 0)))
    }

    func testDamagedFilesAreErrorsNeverTraps() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: fixture("lossless_96x64.jxl")))
        func decodeError(_ bytes: Data) -> CodecError? {
            let path = scratch.appendingPathComponent(UUID().uuidString + ".jxl").path
            FileManager.default.createFile(atPath: path, contents: bytes)
            do { _ = try ours(path); return nil } catch let error as CodecError { return error } catch { XCTFail("\(error)"); return nil }
        }
        for cut in [4, 12, 40, whole.count / 2, whole.count - 1] {
            let error = decodeError(whole.prefix(cut))
            XCTAssertEqual(error?.kind, .corrupt, "cut at \(cut): \(String(describing: error))")
        }
        var random = SplitMix64(seed: 53)
        for _ in 0..<200 {
            var bytes = [UInt8](whole)
            for _ in 0..<3 { bytes[2 + Int(random.next() % UInt64(bytes.count - 2))] = UInt8(random.next() & 0xFF) }
            _ = decodeError(Data(bytes))
        }
        XCTAssertThrowsError(try JXLDecoder(path: fixture("lossless_96x64.jxl"), limits: DecodeLimits(maxPixels: 1000))) {
            XCTAssertEqual(($0 as? CodecError)?.kind, .tooLarge)
        }
    }
}
