import FilterCore
import Foundation
import PNGCodec
import TestSupport
import XCTest

final class StreamingTests: XCTestCase {
    /// Reading in strips of any height gives the same bytes as reading whole, interlaced or not.
    func testStripsOfAnyHeightMatchWholeRead() throws {
        let files = Fixtures.photos + ["pngsuite/basi6a16.png", "pngsuite/basi3p04.png", "pngsuite/s39i3p04.png"]
        for file in files {
            let whole = try PixelDigest.packedBytes(PNGDecoder.decode(path: Fixtures.path(file)))
            for stripHeight in [1, 3, 7, 64] {
                let decoder = try PNGDecoder(path: Fixtures.path(file))
                let buffer = PixelBuffer(width: decoder.header.width, height: decoder.header.height,
                                         format: decoder.header.format,
                                         rowStride: decoder.header.width * decoder.header.format.bytesPerPixel + 13)
                while decoder.nextRow < decoder.header.height {
                    let count = min(stripHeight, decoder.header.height - decoder.nextRow)
                    try decoder.readRows(into: buffer, at: decoder.nextRow, count: count)
                }
                XCTAssertEqual(try PixelDigest.packedBytes(buffer), whole, "\(file) in strips of \(stripHeight)")
            }
        }
    }

    func testReadingPastTheEndIsAnError() throws {
        let decoder = try PNGDecoder(path: Fixtures.path("pngsuite/basn0g08.png"))
        let buffer = PixelBuffer(width: 32, height: 40, format: .grey8)
        XCTAssertThrowsError(try decoder.readRows(into: buffer, count: 33))
    }

    /// The pixel limit is checked on the header, before any pixel memory exists.
    func testOversizedImageIsRefusedBeforeDecoding() throws {
        XCTAssertThrowsError(try PNGDecoder(path: Fixtures.path("photos/chelsea_451x300_rgb8.png"), maxPixels: 1000)) {
            guard let error = $0 as? PNGError else { return XCTFail("\($0)") }
            XCTAssertEqual(error.kind, .tooLarge)
            XCTAssertTrue(error.message.contains("451×300"), error.message)
        }
    }
}
