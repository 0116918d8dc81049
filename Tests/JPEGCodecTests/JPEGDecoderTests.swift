import FilterCore
import Foundation
import JPEGCodec
import PNGCodec
import TestSupport
import XCTest

/// The JPEG reader against libjpeg-turbo's own `djpeg` (references made once, stored as PNG): every variant a
/// camera or editor writes, streamed in strips, plus damaged files and size bombs.
final class JPEGDecoderTests: XCTestCase {
    func fixture(_ name: String) -> String { Fixtures.path("jpeg/" + name) }

    /// Decodes in strips of 7 rows, as the CPU scheduler pulls them.
    func decodeInStrips(_ decoder: JPEGDecoder) throws -> PixelBuffer {
        let buffer = PixelBuffer(width: decoder.width, height: decoder.height, format: decoder.format)
        let base = try buffer.mutableHostBytes()
        while decoder.nextRow < decoder.height {
            let count = min(7, decoder.height - decoder.nextRow)
            try decoder.readRows(into: base + decoder.nextRow * buffer.rowStride, stride: buffer.rowStride, count: count)
        }
        return buffer
    }

    func testEveryVariantEqualsTheReferenceDecode() throws {
        for (name, format, progressive) in [("baseline_420", PixelFormat.rgb8, false), ("progressive_422", .rgb8, true),
                                            ("restart_444", .rgb8, false), ("adobergb_icc", .rgb8, false),
                                            ("grey", .grey8, false)] {
            let decoder = try JPEGDecoder(path: fixture(name + ".jpg"))
            XCTAssertEqual(decoder.format, format, name)
            XCTAssertEqual(decoder.isProgressive, progressive, name)
            let decoded = try decodeInStrips(decoder)
            let reference = try PNGDecoder.decode(path: fixture(name + ".djpeg.png"))
            XCTAssertEqual(decoded.width, reference.width, name)
            XCTAssertEqual(decoded.height, reference.height, name)
            XCTAssertEqual(reference.format, format, name)
            XCTAssertTrue(try PixelDigest.packedBytes(decoded) == PixelDigest.packedBytes(reference), "\(name) differs from djpeg")
        }
    }

    func testEmbeddedProfileIsReadWhole() throws {
        let profile = try Array(Data(contentsOf: URL(fileURLWithPath: fixture("compatibleWithAdobeRGB1998.icc"))))
        XCTAssertEqual(try JPEGDecoder(path: fixture("adobergb_icc.jpg")).metadata.iccProfile, profile)
        XCTAssertNil(try JPEGDecoder(path: fixture("baseline_420.jpg")).metadata.iccProfile)
    }

    /// Adobe's inverted CMYK (APP14), converted without a profile, lands within JPEG's loss of the RGB it came from.
    func testAdobeCMYKBecomesRGB() throws {
        let decoded = try JPEGDecoder.decode(path: fixture("cmyk_adobe.jpg"))
        XCTAssertEqual(decoded.format, .rgb8)
        let original = try PNGDecoder.decode(path: fixture("crop_163x109_rgb8.png"))
        let a = try original.samples(), b = try decoded.samples()
        XCTAssertEqual(a.count, b.count)
        let mean = zip(a, b).map { abs($0 - $1) }.reduce(0, +) / Double(a.count)
        XCTAssertLessThan(mean, 3, "mean difference \(mean) codes")
    }

    func testDecodeTimeReductionMatchesTheBlockMeans() throws {
        let full = try JPEGDecoder.decode(path: fixture("restart_444.jpg"))
        for factor in [2, 4, 8] {
            let reduced = try JPEGDecoder.decode(path: fixture("restart_444.jpg"), reducedBy: factor)
            XCTAssertEqual(reduced.width, (163 + factor - 1) / factor)
            XCTAssertEqual(reduced.height, (109 + factor - 1) / factor)
            // Each reduced pixel is close to the mean of the full-size block it covers (the DCT's DC term).
            let a = try full.samples(), b = try reduced.samples()
            var worst = 0.0
            for y in 0..<(109 / factor) {
                for x in 0..<(163 / factor) {
                    var sum = 0.0
                    for j in 0..<factor { for i in 0..<factor { sum += Double(a[((y * factor + j) * 163 + x * factor + i) * 3]) } }
                    worst = max(worst, abs(sum / Double(factor * factor) - Double(b[(y * reduced.width + x) * 3])))
                }
            }
            XCTAssertLessThan(worst, factor == 8 ? 3 : 40, "factor \(factor)")
        }
    }

    func testTruncatedFilesSayWhere() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture("baseline_420.jpg")))
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let half = dir.appendingPathComponent("half.jpg").path
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: half))
        XCTAssertThrowsError(try JPEGDecoder.decode(path: half)) {
            XCTAssertEqual(($0 as? CodecError)?.kind, .corrupt)
            XCTAssertTrue("\($0)".contains("truncated: the file ends in the image data after"), "\($0)")
        }
        let header = dir.appendingPathComponent("header.jpg").path
        try bytes.prefix(100).write(to: URL(fileURLWithPath: header))
        XCTAssertThrowsError(try JPEGDecoder(path: header)) {
            XCTAssertTrue("\($0)".contains("truncated: the file ends before the image data"), "\($0)")
        }
    }

    /// A header declaring 65500×65500 is refused before any pixel memory exists; so is a progressive file whose
    /// coefficients would exceed the memory limit.
    func testSizeBombsAreRefusedBeforeAllocating() throws {
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: fixture("baseline_420.jpg"))))
        let sof = try XCTUnwrap((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: [0xFF, 0xDC, 0xFF, 0xDC])
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bomb = dir.appendingPathComponent("bomb.jpg").path
        try Data(bytes).write(to: URL(fileURLWithPath: bomb))
        XCTAssertThrowsError(try JPEGDecoder(path: bomb)) {
            XCTAssertEqual(($0 as? CodecError)?.kind, .tooLarge)
            XCTAssertTrue("\($0)".contains("65500×65500"), "\($0)")
        }
        XCTAssertThrowsError(try JPEGDecoder(path: fixture("progressive_422.jpg"), maxMemory: 10_000)) {
            XCTAssertEqual(($0 as? CodecError)?.kind, .tooLarge)
        }
        XCTAssertThrowsError(try JPEGDecoder(path: fixture("baseline_420.jpg"), maxPixels: 1000)) {
            XCTAssertEqual(($0 as? CodecError)?.kind, .tooLarge)
        }
    }

    /// Truncations and bit flips of real JPEGs: each decodes or fails with a CodecError, never a crash.
    func testDamagedFilesFailCleanly() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("damaged.jpg").path
        var generator = SplitMix64(seed: 12)
        var failures = 0, decoded = 0
        for name in ["baseline_420", "progressive_422", "restart_444", "grey", "cmyk_adobe"] {
            let original = try Array(Data(contentsOf: URL(fileURLWithPath: fixture(name + ".jpg"))))
            for _ in 0..<60 {
                var bytes = original
                if generator.next() % 3 == 0 {
                    bytes = Array(bytes.prefix(Int(generator.next() % UInt64(bytes.count))))
                } else {
                    for _ in 0..<(1 + generator.next() % 4) {
                        bytes[Int(generator.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
                    }
                }
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                do {
                    _ = try JPEGDecoder.decode(path: path)
                    decoded += 1
                } catch is CodecError {
                    failures += 1
                }
            }
        }
        XCTAssertGreaterThan(failures, 30)
        XCTAssertGreaterThan(decoded, 30)
    }

    func testExifOrientationIsReadInBothByteOrdersAndDamageReadsAsUpright() {
        for value in 1...8 {
            XCTAssertEqual(Exif.orientation(Exif.block(orientation: value)), value)
            XCTAssertEqual(Exif.orientation(Exif.block(orientation: value, littleEndian: false)), value)
        }
        var block = Exif.block(orientation: 6)
        XCTAssertEqual(Exif.orientation(Array(block.prefix(12))), 1)
        block[2] = 0
        XCTAssertEqual(Exif.orientation(block), 1)
        XCTAssertEqual(Exif.orientation([]), 1)
        XCTAssertEqual(Exif.orientation(Exif.block(orientation: 9)), 1)
    }

    /// The DCT reductions are offered only where chroma is sampled alike on both axes: libjpeg's scaled decode of
    /// 4:2:2 or 1×4 chroma strays up to 11 codes from the full decode (BENCHMARKS.md, "Shrink on load across
    /// samplings"), where 4:4:4, 4:2:0 and grey stay within resize's 2.
    func testDecodeReductionsOnlyForEvenChromaSampling() throws {
        for (name, offered) in [("baseline_420.jpg", true), ("restart_444.jpg", true), ("grey.jpg", true),
                                ("progressive_422.jpg", false)] {
            XCTAssertEqual(try JPEGDecoder(path: fixture(name)).decodeReductions.factors, offered ? [2, 4, 8] : [], name)
        }
    }

    /// An IFD0 of 1 200 entries (calibration and maker tools write long ones) is read as far as its bytes go: the
    /// orientation first, or the 1 100th, is found (ExifTool and Pillow read both); a count past the block's end
    /// stops at the end, upright when the tag is not reached.
    func testLongDirectoriesAreBoundedByBytesNotEntries() {
        func directory(count: Int, entries: Int, orientationAt: Int) -> [UInt8] {
            var block: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, UInt8(count & 0xFF), UInt8(count >> 8)]
            for i in 0..<entries {
                let tag = i == orientationAt ? 0x0112 : 0x9000 + i
                block += [UInt8(tag & 0xFF), UInt8(tag >> 8), 3, 0, 1, 0, 0, 0, i == orientationAt ? 6 : 1, 0, 0, 0]
            }
            return block + [0, 0, 0, 0]
        }
        XCTAssertEqual(Exif.orientation(directory(count: 1200, entries: 1200, orientationAt: 0)), 6)
        XCTAssertEqual(Exif.orientation(directory(count: 1200, entries: 1200, orientationAt: 1099)), 6)
        XCTAssertEqual(Exif.orientation(directory(count: 65535, entries: 1200, orientationAt: 1199)), 6)
        XCTAssertEqual(Exif.orientation(directory(count: 65535, entries: 50, orientationAt: 60)), 1)
    }
}
