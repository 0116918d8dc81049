import FilterCore
import Foundation
import PNGCodec
import TestSupport
import XCTest

final class RoundTripTests: XCTestCase {
    let integerFormats: [PixelFormat] = [.grey8, .greyA8, .rgb8, .rgba8, .grey16, .greyA16, .rgb16, .rgba16]

    /// decode → encode → decode is exact for every layout we write, at every compression setting.
    func testSyntheticRoundTripIsExactForEveryLayout() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var generator = SplitMix64(seed: 7)
        for format in integerFormats {
            let buffer = PixelBuffer(width: 37, height: 23, format: format)
            let bytes = try buffer.mutableHostBytes()
            for i in 0..<buffer.byteCount { bytes.storeBytes(of: UInt8(truncatingIfNeeded: generator.next()), toByteOffset: i, as: UInt8.self) }
            for (level, filter) in [(0, PNGWriteOptions.Filter.none), (2, .sub), (6, .all), (9, .paeth)] {
                let path = dir.appendingPathComponent("\(format)-\(level).png").path
                try PNGEncoder.encode(buffer, to: path, options: PNGWriteOptions(compressionLevel: level, filter: filter))
                let back = try PNGDecoder.decode(path: path)
                XCTAssertEqual(back.format, format)
                XCTAssertEqual(try PixelDigest.packedBytes(back), try PixelDigest.packedBytes(buffer), "\(format) level \(level)")
            }
        }
    }

    func testRealPhotosRoundTrip() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for file in Fixtures.photos {
            let image = try PNGDecoder.decode(path: Fixtures.path(file))
            let path = dir.appendingPathComponent("out.png").path
            try PNGEncoder.encode(image, to: path, replace: true)
            XCTAssertEqual(try PixelDigest.packedBytes(PNGDecoder.decode(path: path)), try PixelDigest.packedBytes(image), file)
        }
    }

    /// A write that is not finished leaves nothing behind: no file under the name, no temporary file.
    func testUnfinishedWriteLeavesNoFile() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("partial.png").path
        do {
            let encoder = try PNGEncoder(path: path, width: 10, height: 10, format: .rgb8)
            let row = [UInt8](repeating: 9, count: 30)
            try encoder.writeRows(row, stride: 30, count: 1)
            XCTAssertThrowsError(try encoder.finish())
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testMissingDirectoryIsNamed() {
        XCTAssertThrowsError(try PNGEncoder(path: "/nonexistent-dir/x.png", width: 1, height: 1, format: .grey8)) {
            XCTAssertEqual(($0 as? OutputError)?.kind, .notWritable)
            XCTAssertTrue("\($0)".contains("the directory /nonexistent-dir does not exist"), "\($0)")
        }
    }

    /// Without `replace` an existing file is an error and stays as it was; with it, the file is replaced.
    func testExistingFilesAreReplacedOnlyWhenAsked() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("x.png").path
        try Data("mine".utf8).write(to: URL(fileURLWithPath: path))
        let image = PixelBuffer(width: 2, height: 2, format: .grey8)
        XCTAssertThrowsError(try PNGEncoder.encode(image, to: path)) { XCTAssertEqual(($0 as? OutputError)?.kind, .exists) }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data("mine".utf8))
        try PNGEncoder.encode(image, to: path, replace: true)
        XCTAssertEqual(try PNGDecoder.decode(path: path).width, 2)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["x.png"])
    }
}
