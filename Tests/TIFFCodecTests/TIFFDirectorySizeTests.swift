import FilterCore
import Foundation
import TestSupport
import TIFFCodec
import XCTest

/// libtiff adds each tag it does not know to its field table and sorts the table again, so a directory costs the
/// square of its unknown tags (4000 in a 48 KB file: 1.4 s a read, and a decoder reads a page's directory several
/// times): directories of more than 512 entries are refused before libtiff reads them — the first page's at
/// opening, another page's when it is chosen — and a pyramid level's is passed over. Files written here: 1×1 grey
/// pages with `unknown` private tags (60000 on) beside the eight a strip needs.
final class TIFFDirectorySizeTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    /// A little-endian classic TIFF of `pages` 1×1 grey pages, page i with `unknown[i]` unknown tags; `subIFD`:
    /// page 0 also names one reduced-resolution SubIFD with that many unknown tags.
    func tiff(unknown: [Int], subIFD: Int? = nil) throws -> String {
        var bytes: [UInt8] = Array("II".utf8) + [42, 0, 8, 0, 0, 0]
        func put16(_ v: Int) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func put32(_ v: Int) { put16(v & 0xFFFF); put16(v >> 16) }
        // One directory at the end of `bytes`: its entries, then the next directory's offset (patched by the caller).
        func directory(unknown: Int, reduced: Bool, subIFDAt: Int?) -> (next: Int, pixel: Int) {
            var entries: [(tag: Int, type: Int, value: Int)] = [(256, 3, 1), (257, 3, 1), (258, 3, 8), (259, 3, 1), (262, 3, 1),
                                                                 (273, 4, 0), (277, 3, 1), (278, 3, 1), (279, 4, 1)]
            if reduced { entries.append((254, 4, 1)) }
            if let subIFDAt { entries.append((330, 4, subIFDAt)) }
            entries += (0..<unknown).map { (60000 + $0, 3, $0 & 0xFFFF) }
            entries.sort { $0.tag < $1.tag }
            let start = bytes.count, pixel = start + 2 + 12 * entries.count + 4
            put16(entries.count)
            for entry in entries {
                put16(entry.tag); put16(entry.type); put32(1)
                put32(entry.tag == 273 ? pixel : entry.value)
            }
            let next = bytes.count
            put32(0)
            bytes.append(0x80)
            return (next, pixel)
        }
        var previousNext: Int?
        for (page, count) in unknown.enumerated() {
            if let previousNext {
                let here = bytes.count
                for i in 0..<4 { bytes[previousNext + i] = UInt8(here >> (8 * i) & 0xFF) }
            }
            // The SubIFD goes right after page 0's directory, which names it at the offset it will have.
            let subAt = page == 0 && subIFD != nil ? bytes.count + 2 + 12 * (count + 10) + 4 + 1 : nil
            previousNext = directory(unknown: count, reduced: false, subIFDAt: subAt).next
            if let subAt, let subIFD {
                XCTAssertEqual(bytes.count, subAt)
                _ = directory(unknown: subIFD, reduced: true, subIFDAt: nil)
            }
        }
        let path = scratch.appendingPathComponent(UUID().uuidString + ".tif").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    func testDirectoriesOfThousandsOfTagsAreRefusedBeforeLibtiffReadsThem() throws {
        // 500 unknown tags (509 entries) read; 4000 refused at once, naming the count and the limit.
        XCTAssertEqual(try TIFFDecoder(path: tiff(unknown: [500])).readAll().packedData().count, 1)
        XCTAssertThrowsError(try TIFFDecoder(path: tiff(unknown: [4000]))) { error in
            XCTAssertEqual((error as? CodecError)?.kind, .corrupt)
            XCTAssertTrue("\(error)".contains("a directory of 4009 entries, over the 512"), "\(error)")
        }
        // A second page's directory: the first page reads; the second, chosen, is refused.
        let pages = try tiff(unknown: [0, 4000])
        XCTAssertEqual(try TIFFDecoder(path: pages).width, 1)
        XCTAssertThrowsError(try TIFFDecoder(path: pages, limits: DecodeLimits(page: 1))) { error in
            XCTAssertTrue("\(error)".contains("over the 512"), "\(error)")
        }
        // A reduced-resolution SubIFD of 4000 tags is passed over (no level, no error): the page reads. (Its cost,
        // 1.4 s a read before, is in BENCHMARKS.md; tests time nothing.)
        XCTAssertEqual(try TIFFDecoder(path: tiff(unknown: [0], subIFD: 4000)).readAll().packedData().count, 1)
    }
}
