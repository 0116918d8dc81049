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

    /// A PFM's float RGB (stored bottom row first, little-endian when the scale is negative, big-endian otherwise),
    /// top row first.
    func pfm(_ path: String) throws -> (width: Int, height: Int, rgb: [Float]) {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var lines = [String](), at = 0
        while lines.count < 3 {
            let end = try XCTUnwrap(data[at...].firstIndex(of: 0x0A))
            lines.append(String(decoding: data[at..<end], as: UTF8.self))
            at = end + 1
        }
        let size = lines[1].split(separator: " ").compactMap { Int($0) }
        let (w, h) = (size[0], size[1])
        let little = (Double(lines[2].trimmingCharacters(in: .whitespaces)) ?? -1) < 0
        let values = data[at...].withUnsafeBytes { raw in
            (0..<(w * h * 3)).map { i -> Float in
                let bits = raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
                return Float(bitPattern: little ? UInt32(littleEndian: bits) : UInt32(bigEndian: bits))
            }
        }
        var rgb = [Float]()
        for y in (0..<h).reversed() { rgb += values[(y * w * 3)..<((y + 1) * w * 3)] }
        return (w, h, rgb)
    }

    /// Float JPEG XL is read as floats, unclamped (values up to 4 here): a lossless one in its own space (sRGB's
    /// curve, its profile kept), every sample the PFM it was made from; an XYB-coded one asked in linear sRGB,
    /// within float rounding of djxl's decoding (in the file's sRGB-curve space) linearised by the sRGB formula.
    func testFloatSamplesAreReadAsFloats() throws {
        let source = try pfm(fixture("float_hdr_64x48.pfm"))
        let (lossless, exact) = try ours(fixture("float_lossless_64x48.jxl"))
        XCTAssertTrue(lossless.storesFloats)
        XCTAssertEqual(lossless.format, .rgba32f)
        XCTAssertEqual(lossless.storedFormat, .rgb16)
        XCTAssertNotNil(lossless.metadata.iccProfile, "its own space, described")
        let floats = exact.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        XCTAssertEqual(floats.count, 64 * 48 * 4)
        var samples = [Float]()
        for p in 0..<(64 * 48) { samples += floats[(p * 4)..<(p * 4 + 3)]; XCTAssertEqual(floats[p * 4 + 3], 1) }
        XCTAssertEqual(samples, source.rgb)
        XCTAssertGreaterThan(samples.max() ?? 0, 3.9)

        let (lossy, linear) = try ours(fixture("float_lossy_64x48.jxl"))
        XCTAssertTrue(lossy.storesFloats)
        XCTAssertNil(lossy.metadata.iccProfile, "linear sRGB needs no profile")
        let reference = scratch.appendingPathComponent("lossy.pfm").path
        try ExternalTool.run("djxl", [fixture("float_lossy_64x48.jxl"), reference, "--quiet"], package: "libjxl-tools")
        let decoded = try pfm(reference).rgb
        let got = linear.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        func toLinear(_ v: Float) -> Double {
            let x = Double(abs(v)), l = x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
            return v < 0 ? -l : l
        }
        // Within sRGB's range both are exact conversions; beyond it djxl's output passed through libjxl's fitted
        // approximation of the sRGB curve, which strays by a few per cent by 4.
        var inRange = 0.0, beyond = 0.0
        for p in 0..<(64 * 48) {
            for c in 0..<3 {
                let expected = toLinear(decoded[p * 3 + c]), difference = abs(Double(got[p * 4 + c]) - expected)
                if decoded[p * 3 + c] <= 1 { inRange = max(inRange, difference) } else { beyond = max(beyond, difference / expected) }
            }
        }
        XCTAssertLessThan(inRange, 0.002, "within sRGB's range")
        XCTAssertLessThan(beyond, 0.04, "beyond it, relative")
        XCTAssertGreaterThan(got.max() ?? 0, 20, "highlights stay above 1, unclamped")
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
