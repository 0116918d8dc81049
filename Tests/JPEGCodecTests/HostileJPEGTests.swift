import FilterCore
import Foundation
import JPEGCodec
import TestSupport
import XCTest

/// Damaged and hostile JPEGs (Tests/Fixtures/hostile, made by scripts/make-hostile-fixtures.py): each class of
/// damage stops decoding at its fail-on level and passes, with a warning, below it; scan floods and coefficient
/// bombs are refused in bounded time and memory; valid files of processes libjpeg does not read are "unsupported",
/// not "corrupt".
final class HostileJPEGTests: XCTestCase {
    func hostile(_ name: String) -> String { Fixtures.path("hostile/" + name) }

    /// Decodes the whole file in strips of 16 rows; the warnings after the last row.
    func decode(_ name: String, failOn: FailOn, maxWork: Double? = nil) throws -> (PixelBuffer, [String]) {
        let decoder = try JPEGDecoder(path: hostile(name), limits: DecodeLimits(failOn: failOn, maxWork: maxWork))
        let buffer = PixelBuffer(width: decoder.width, height: decoder.height, format: decoder.format)
        let base = try buffer.mutableHostBytes()
        while decoder.nextRow < decoder.height {
            let count = min(16, decoder.height - decoder.nextRow)
            try decoder.readRows(into: base + decoder.nextRow * buffer.rowStride, stride: buffer.rowStride, count: count)
        }
        return (buffer, decoder.fileWarnings)
    }

    func assertRefused(_ name: String, failOn: FailOn, _ phrase: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try decode(name, failOn: failOn), name, file: file, line: line) {
            XCTAssertEqual(($0 as? CodecError)?.kind, .corrupt, "\($0)", file: file, line: line)
            XCTAssertTrue("\($0)".contains(phrase), "\(name): \($0)", file: file, line: line)
        }
    }

    /// The share of samples more than 20 codes from the intact decode.
    func wrongShare(_ damaged: PixelBuffer) throws -> Double {
        let (intact, _) = try decode("intact.jpg", failOn: .warning)
        let a = try PixelDigest.packedBytes(damaged), b = try PixelDigest.packedBytes(intact)
        guard a.count == b.count else { return 1 }
        return Double(zip(a, b).filter { abs(Int($0) - Int($1)) > 20 }.count) / Double(a.count)
    }

    func testCorruptDataStopsDecodingByDefault() throws {
        // Each damage class: refused under the default (error), decoded with a warning under `none` — and the
        // decode really is wrong, so refusing it is right.
        for (name, phrase) in [("cut-scan-eoi.jpg", "premature end of data segment"), ("xor-scan.jpg", "extraneous bytes"),
                               ("no-dht.jpg", "bad Huffman code"), ("sof-taller.jpg", "premature end of data segment")] {
            assertRefused(name, failOn: .default, "corrupt JPEG data (")
            assertRefused(name, failOn: .default, phrase)
            assertRefused(name, failOn: .warning, phrase)
            let (lenient, warnings) = try decode(name, failOn: .never)
            XCTAssertEqual(warnings.count, 1, name)
            XCTAssertTrue(warnings.first?.contains("corrupt JPEG data") == true && warnings.first?.contains(name) == true, "\(warnings)")
            if name != "sof-taller.jpg" { XCTAssertGreaterThan(try wrongShare(lenient), 0.05, name) }
            // `truncated` lets corrupt data pass: it fails on truncation only.
            XCTAssertNoThrow(try decode(name, failOn: .truncated), name)
        }
    }

    func testTruncationFailsFromTheTruncatedLevelUp() throws {
        for level in [FailOn.truncated, .error, .warning] {
            assertRefused("truncated-scan.jpg", failOn: level, "truncated: the file ends in the image data after 1")
        }
        let (_, warnings) = try decode("truncated-scan.jpg", failOn: .never)
        XCTAssertTrue(warnings.first?.contains("the file is truncated") == true, "\(warnings)")
    }

    /// A file missing only its end marker holds every row (djpeg decodes it identically): a harmless warning.
    func testAMissingEndMarkerAloneIsAWarning() throws {
        let (intact, none) = try decode("intact.jpg", failOn: .warning)
        XCTAssertEqual(none, [])
        for level in [FailOn.never, .truncated, .error] {
            let (decoded, warnings) = try decode("no-eoi.jpg", failOn: level)
            XCTAssertEqual(try PixelDigest.packedBytes(decoded), try PixelDigest.packedBytes(intact))
            XCTAssertTrue(warnings.first?.contains("no end marker; every row was there") == true, "\(warnings)")
        }
        assertRefused("no-eoi.jpg", failOn: .warning, "Premature end of JPEG file")
    }

    /// 601 scans (the AC scans repeated): refused at the 501st, in well under a second, whatever the fail-on level.
    func testScanFloodsAreBounded() throws {
        let began = Date()
        XCTAssertThrowsError(try decode("scan-flood.jpg", failOn: .never)) {
            XCTAssertEqual(($0 as? CodecError)?.kind, .tooLarge)
            XCTAssertTrue("\($0)".contains("more than \(DecodeLimits.maxScans) scans"), "\($0)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(began), 5)
        // The decoding work counts against the work limit: 64×64 samples a scan.
        XCTAssertThrowsError(try decode("scan-flood.jpg", failOn: .never, maxWork: 64 * 64 * 100)) {
            XCTAssertTrue("\($0)".contains("over the work limit"), "\($0)")
        }
        XCTAssertNoThrow(try decode("intact.jpg", failOn: .error, maxWork: 451 * 300 * 2))
    }

    /// 13300² progressive 4:4:4 holds 3 × 2 bytes a pixel of coefficients (1.06 GB), not the 1.5 × 2 of 4:2:0.
    func testCoefficientMemoryFollowsTheSampling() throws {
        let decoder = try JPEGDecoder(path: hostile("progressive-444-13300.jpg"))
        XCTAssertEqual(decoder.coefficientBytes, 13_304 * 13_304 * 3 * 2, accuracy: 1)
        XCTAssertThrowsError(try JPEGDecoder(path: hostile("progressive-444-13300.jpg"), maxMemory: 1_000_000_000)) {
            XCTAssertEqual(($0 as? CodecError)?.kind, .tooLarge)
            XCTAssertTrue("\($0)".contains("1.0 GiB of coefficients") || "\($0)".contains("0.99 GiB of coefficients"), "\($0)")
        }
        // 4:2:0 at the same size: half of it.
        XCTAssertEqual(try JPEGDecoder(path: Fixtures.path("jpeg/progressive_422.jpg")).coefficientBytes,
                       Double(((163 + 15) / 16 * 2) * ((109 + 7) / 8) * 128 + 2 * ((163 + 15) / 16) * ((109 + 7) / 8) * 128))
        XCTAssertEqual(try JPEGDecoder(path: hostile("intact.jpg")).coefficientBytes, 0, "a baseline file holds no coefficients")
    }

    func testValidFilesOfOtherProcessesAreUnsupportedNotCorrupt() throws {
        for (name, phrase) in [("precision-12.jpg", "a 12-bit JPEG"), ("lossless-sof3.jpg", "a lossless JPEG"),
                               ("hierarchical-sof5.jpg", "a hierarchical JPEG")] {
            XCTAssertThrowsError(try JPEGDecoder(path: hostile(name)), name) {
                XCTAssertEqual(($0 as? CodecError)?.kind, .unsupported, "\($0)")
                XCTAssertTrue("\($0)".contains(phrase) && !"\($0)".contains("corrupt"), "\($0)")
            }
        }
        XCTAssertThrowsError(try JPEGDecoder(path: hostile("dimension-65535.jpg"))) {
            XCTAssertEqual(($0 as? CodecError)?.kind, .tooLarge)
            XCTAssertTrue("\($0)".contains("image is 65535×65535 pixels"), "\($0)")
        }
    }
}
