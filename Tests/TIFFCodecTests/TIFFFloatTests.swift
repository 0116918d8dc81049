import FilterCore
import Foundation
import TestSupport
import TIFFCodec
import XCTest

/// Floating-point TIFFs: written by libtiff-tools (raw2tiff, tiffcp) and a baseline writer from light computed in
/// float64 (scripts/make-tiff-float-fixtures.py), with the samples as stored beside each (`.expected.f32`). Reading
/// must give them exactly, premultiplied, unclamped; our float output must come back exactly and be read the same by
/// libtiff's tiffcp and by Pillow.
final class TIFFFloatTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }
    func fixture(_ name: String) -> String { Fixtures.path("tiff/" + name) }

    func stored(_ name: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture(name + ".expected.f32")))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    func floats(_ decoder: TIFFDecoder) throws -> [Float] {
        let bytes = [UInt8](try decoder.readAll().packedData())
        return bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The stored samples as premultiplied RGBA: grey repeated, unassociated alpha multiplied in.
    static func premultiplied(_ samples: [Float], bands: Int, associated: Bool) -> [Float] {
        stride(from: 0, to: samples.count, by: bands).flatMap { p -> [Float] in
            let alpha: Float = bands == 2 || bands == 4 ? samples[p + bands - 1] : 1
            let colour = bands <= 2 ? [samples[p], samples[p], samples[p]] : [samples[p], samples[p + 1], samples[p + 2]]
            return colour.map { associated ? $0 : $0 * alpha } + [alpha]
        }
    }

    func testEveryFloatVariantReadsItsSamplesExactly() throws {
        for (name, bands, associated, layout) in [
            ("rgb32f_deflate_fp.tif", 3, false, PixelFormat.rgb16), ("rgb32f_lzw_tiles_bigendian.tif", 3, false, .rgb16),
            ("rgba32f_unassociated.tif", 4, false, .rgba16), ("grey64f.tif", 1, false, .grey16),
            ("greyalpha16f_associated.tif", 2, true, .greyA16),
        ] {
            let decoder = try TIFFDecoder(path: fixture(name))
            XCTAssertTrue(decoder.storesFloats, name)
            XCTAssertEqual(decoder.format, .rgba32f, name)
            XCTAssertEqual(decoder.storedFormat, layout, name)
            let samples = try stored(name)
            let got = try floats(decoder), expected = Self.premultiplied(samples, bands: bands, associated: associated)
            XCTAssertEqual(got.count, expected.count, name)
            XCTAssertEqual(got, expected, name)
            // The fixtures reach outside 0…1 (straight colour), so equality shows nothing was clamped.
            let colour = samples.enumerated().filter { bands % 2 == 1 || $0.offset % bands != bands - 1 }.map(\.element)
            if !associated { XCTAssertGreaterThan(colour.max() ?? 0, 1.2, "\(name): highlights above 1") }
            if bands >= 3 { XCTAssertLessThan(colour.min() ?? 0, -0.01, "\(name): a colour outside sRGB") }
        }
    }

    func testNonFiniteSamplesAreHeldFinite() throws {
        // The half-float file with a NaN, +∞ and −∞ stomped into its first three samples (uncompressed, one strip).
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture("greyalpha16f_associated.tif"))))
        let strip = bytes.count - 96 * 64 * 2 * 2
        for (i, half) in [Float16.nan, .infinity, -.infinity].enumerated() {
            withUnsafeBytes(of: half.bitPattern.littleEndian) { bytes[strip + i * 2] = $0[0]; bytes[strip + i * 2 + 1] = $0[1] }
        }
        let path = scratch.appendingPathComponent("nonfinite.tif").path
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let got = try floats(try TIFFDecoder(path: path))
        XCTAssertTrue(got.allSatisfy(\.isFinite))
        XCTAssertEqual(Array(got[0..<3]), [0, 0, 0], "NaN read as 0")
        XCTAssertEqual(got[3], 1, "+∞ alpha held at 1")
        XCTAssertEqual(Array(got[4..<7]), [-65504, -65504, -65504], "−∞ held at half float's largest")
    }

    func testFloatOutputComesBackExactlyAndLibtiffAgrees() throws {
        let source = Self.premultiplied(try stored("rgba32f_unassociated.tif"), bands: 4, associated: false)
        // Straight samples, as the encoder takes them.
        let straight = stride(from: 0, to: source.count, by: 4).flatMap { p -> [Float] in
            let a = source[p + 3]
            return [a > 0 ? source[p] / a : 0, a > 0 ? source[p + 1] / a : 0, a > 0 ? source[p + 2] / a : 0, a]
        }
        for compression in TIFFWriteOptions.Compression.allCases {
            let path = scratch.appendingPathComponent("out-\(compression).tif").path
            let encoder = try TIFFEncoder(output: try OutputFile(path: path, replace: false), width: 96, height: 64,
                                          format: .rgba16, options: TIFFWriteOptions(compression: compression), floats: true)
            try straight.withUnsafeBytes { try encoder.writeRows($0.baseAddress!, stride: 96 * 16, count: 64) }
            try encoder.finish()
            let back = try floats(try TIFFDecoder(path: path))
            let expected = Self.premultiplied(straight, bands: 4, associated: false)
            XCTAssertEqual(back, expected, "\(compression)")
            // libtiff's own tool undoes the predictor and copies it uncompressed without a complaint.
            let copy = path + ".copy.tif"
            let (status, complaint) = try Self.run("/usr/bin/tiffcp", ["-c", "none", path, copy])
            XCTAssertEqual(status, 0)
            XCTAssertEqual(complaint, "")
            XCTAssertEqual(try floats(try TIFFDecoder(path: copy)), expected, "tiffcp's copy, \(compression)")
        }
    }

    func testPillowReadsOurGreyFloatsAsWritten() throws {
        let values = try stored("grey64f.tif")
        let path = scratch.appendingPathComponent("grey.tif").path
        let encoder = try TIFFEncoder(output: try OutputFile(path: path, replace: false), width: 96, height: 64,
                                      format: .grey16, floats: true)
        try values.withUnsafeBytes { try encoder.writeRows($0.baseAddress!, stride: 96 * 4, count: 64) }
        try encoder.finish()
        let script = "from PIL import Image; import sys, struct; im = Image.open(sys.argv[1]); "
            + "sys.stdout.buffer.write(im.mode.encode() + b'|' + struct.pack('<%df' % (96 * 64), *im.getdata()))"
        let raw = try Self.capture("/usr/bin/python3", ["-c", script, path])
        XCTAssertEqual(String(decoding: raw.prefix(2), as: UTF8.self), "F|")
        let pillow = raw.dropFirst(2).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        XCTAssertEqual(pillow, values)
    }

    /// The tool's exit status and what it said on stderr.
    static func run(_ tool: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let errors = Pipe(), output = Pipe()
        process.standardError = errors
        process.standardOutput = output
        try process.run()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// What the tool wrote on stdout.
    static func capture(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }
}
