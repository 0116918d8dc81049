import FilterCore
import Foundation
import PNGCodec
import TestSupport
import XCTest

final class PngSuiteTests: XCTestCase {
    /// Every valid PngSuite file decodes to the pixels pypng (an independent decoder) records.
    func testValidFilesMatchIndependentDecoder() throws {
        let listing = try String(contentsOfFile: Fixtures.path("pngsuite/expected-rgba16.txt"), encoding: .utf8)
        var checked = 0
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            let image = try PNGDecoder.decode(path: Fixtures.path("pngsuite/\(fields[0])"))
            XCTAssertEqual(image.width, Int(fields[1]), fields[0])
            XCTAssertEqual(image.height, Int(fields[2]), fields[0])
            let digest = String(format: "%08x", PixelDigest.crc32(try PixelDigest.rgba16BigEndian(image)))
            XCTAssertEqual(digest, fields[3], "\(fields[0]) decodes to different pixels")
            checked += 1
        }
        XCTAssertEqual(checked, 161)
    }

    /// Every deliberately corrupt file (x*) is refused with a message naming the file.
    func testCorruptFilesAreRejected() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.path("pngsuite"))
            .filter { $0.hasPrefix("x") && $0.hasSuffix(".png") }
        XCTAssertEqual(names.count, 14)
        for name in names {
            let path = Fixtures.path("pngsuite/\(name)")
            XCTAssertThrowsError(try PNGDecoder.decode(path: path), name) { error in
                let text = "\(error)"
                XCTAssertTrue(text.hasPrefix(path + ": "), text)
                XCTAssertGreaterThan(text.count, path.count + 4, text)
            }
        }
    }

    func testHeaderDescribesFileWithoutDecoding() throws {
        let decoder = try PNGDecoder(path: Fixtures.path("pngsuite/basi3p02.png"))
        XCTAssertEqual(decoder.header.colorType, .palette)
        XCTAssertEqual(decoder.header.bitDepth, 2)
        XCTAssertTrue(decoder.header.interlaced)
        XCTAssertEqual(decoder.header.format, .rgb8)
        XCTAssertEqual(decoder.nextRow, 0)
        let grey16 = try PNGDecoder(path: Fixtures.path("pngsuite/basn0g16.png"))
        XCTAssertEqual(grey16.header.format, .grey16)
        let paletteAlpha = try PNGDecoder(path: Fixtures.path("pngsuite/tbbn3p08.png"))
        XCTAssertEqual(paletteAlpha.header.format, .rgba8)
        XCTAssertTrue(paletteAlpha.header.hasTransparency)
    }
}
