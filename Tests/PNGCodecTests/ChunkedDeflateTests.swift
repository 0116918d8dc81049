import CPNG
import FilterCore
import Foundation
import PNGCodec
import TestSupport
import XCTest

/// The parallel compressor against libpng: the same pixels back through libpng, zlib and Pillow, and the same row
/// filters as libpng's heuristic chooses.
final class ChunkedDeflateTests: XCTestCase {
    let formats: [PixelFormat] = [.grey8, .greyA8, .rgb8, .rgba8, .grey16, .greyA16, .rgb16, .rgba16]

    private func options(level: Int, filter: PNGWriteOptions.Filter, threads: Int, chunkBytes: Int) -> PNGWriteOptions {
        var options = PNGWriteOptions(compressionLevel: level, filter: filter)
        options.compressor = .chunked(threads: threads, chunkBytes: chunkBytes)
        return options
    }

    /// A smooth image with noise, so every filter type wins on some rows.
    private func image(_ format: PixelFormat, width: Int, height: Int, seed: UInt64) throws -> PixelBuffer {
        var random = SplitMix64(seed: seed)
        let buffer = PixelBuffer(width: width, height: height, format: format)
        let base = try buffer.mutableHostBytes()
        let samples = width * format.channels
        for y in 0..<height {
            for i in 0..<samples {
                let smooth = Double((i * 7 + y * 5) % 256) + Double(random.next() % 9)
                let value = UInt64(smooth) + (random.next() % 16 == 0 ? random.next() % 256 : 0)
                if format.depth == 8 {
                    (base + y * buffer.rowStride).storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: i, as: UInt8.self)
                } else {
                    (base + y * buffer.rowStride).storeBytes(of: UInt16(truncatingIfNeeded: value * 257 + random.next() % 3),
                                                             toByteOffset: 2 * i, as: UInt16.self)
                }
            }
        }
        return buffer
    }

    /// The IDAT chunks' bytes, inflated by zlib (which checks the combined Adler-32).
    private func inflatedRows(_ path: String, expected: Int) throws -> [UInt8] {
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var stream: [UInt8] = []
        var offset = 8
        while offset + 8 <= file.count {
            let length = Int(file[offset]) << 24 | Int(file[offset + 1]) << 16 | Int(file[offset + 2]) << 8 | Int(file[offset + 3])
            let type = String(decoding: file[offset + 4 ..< offset + 8], as: UTF8.self)
            if type == "IDAT" { stream += file[offset + 8 ..< offset + 8 + length] }
            offset += 12 + length
        }
        var output = [UInt8](repeating: 0, count: expected + 1)
        var length = uLong(output.count)
        let status = uncompress(&output, &length, stream, uLong(stream.count))
        XCTAssertEqual(status, Z_OK, "zlib refused the IDAT stream of \(path)")
        XCTAssertEqual(Int(length), expected, "inflated length of \(path)")
        return Array(output.prefix(Int(length)))
    }

    /// Every layout, filter, thread count and run length (down to one row a run, so every row starts a piece
    /// primed with a dictionary) decodes to the pixels written, through libpng and through zlib alone.
    func testEveryLayoutFilterAndSplitDecodesExactly() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (index, format) in formats.enumerated() {
            let buffer = try image(format, width: 53, height: 41, seed: UInt64(index))
            let rowBytes = 53 * format.bytesPerPixel
            for filter in PNGWriteOptions.Filter.allCases {
                for (threads, chunkBytes) in [(1, 1), (3, 1), (3, 700), (2, 1 << 20)] {
                    let path = dir.appendingPathComponent("\(format)-\(filter)-\(threads)-\(chunkBytes).png").path
                    try PNGEncoder.encode(buffer, to: path, options: options(level: 6, filter: filter, threads: threads,
                                                                             chunkBytes: chunkBytes), replace: true)
                    let back = try PNGDecoder.decode(path: path)
                    XCTAssertEqual(back.format, format)
                    XCTAssertEqual(try PixelDigest.packedBytes(back), try PixelDigest.packedBytes(buffer),
                                   "\(format) \(filter) threads \(threads) run \(chunkBytes) B")
                    _ = try inflatedRows(path, expected: 41 * (rowBytes + 1))
                }
            }
        }
    }

    /// Rows wider than the 32 KiB dictionary, narrow rows whose dictionary spans thousands of rows, and stored
    /// (level 0) and fastest (level 1) streams.
    func testDictionaryAcrossWideAndNarrowRowsAndEveryLevel() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (width, height, format) in [(9000, 5, PixelFormat.rgb8), (3, 3000, PixelFormat.grey8)] {
            let buffer = try image(format, width: width, height: height, seed: 11)
            for level in [0, 1, 9] {
                let path = dir.appendingPathComponent("\(width)-\(level).png").path
                try PNGEncoder.encode(buffer, to: path, options: options(level: level, filter: .all, threads: 2,
                                                                         chunkBytes: 4096), replace: true)
                XCTAssertEqual(try PixelDigest.packedBytes(PNGDecoder.decode(path: path)),
                               try PixelDigest.packedBytes(buffer), "\(width)×\(height) level \(level)")
            }
        }
    }

    /// Our filters and adaptive heuristic are libpng's: on a real photo, the filtered rows (filter byte and bytes)
    /// are identical to libpng's for every filter setting.
    func testFilteredRowsEqualLibpngs() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for file in Fixtures.photos {
            let photo = try PNGDecoder.decode(path: Fixtures.path(file))
            let expected = photo.height * (photo.width * photo.format.bytesPerPixel + 1)
            for filter in PNGWriteOptions.Filter.allCases {
                var reference = PNGWriteOptions(compressionLevel: 6, filter: filter)
                reference.compressor = .libpng
                let ours = dir.appendingPathComponent("ours.png").path, theirs = dir.appendingPathComponent("libpng.png").path
                try PNGEncoder.encode(photo, to: theirs, options: reference, replace: true)
                try PNGEncoder.encode(photo, to: ours, options: options(level: 6, filter: filter, threads: 2, chunkBytes: 8192),
                                      replace: true)
                let a = try inflatedRows(ours, expected: expected), b = try inflatedRows(theirs, expected: expected)
                let rowBytes = photo.width * photo.format.bytesPerPixel + 1
                let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                XCTAssert(first == nil && a.count == b.count,
                          "\(file) \(filter): filtered rows differ from libpng's from row \((first ?? 0) / rowBytes)")
            }
        }
    }

    /// Pillow (its own PNG reader over zlib) and libvips, where installed, read the same pixels.
    func testOtherDecodersReadTheSamePixels() throws {
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let vips = FileManager.default.isExecutableFile(atPath: "/usr/bin/vips")
        guard python != nil || vips else { throw XCTSkip("neither python3 nor vips is installed") }
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var checked = 0
        for file in Fixtures.photos where file.contains("8") {
            let photo = try PNGDecoder.decode(path: Fixtures.path(file))
            let path = dir.appendingPathComponent("out.png").path
            try PNGEncoder.encode(photo, to: path, options: options(level: 6, filter: .all, threads: 3, chunkBytes: 5000),
                                  replace: true)
            let raw = dir.appendingPathComponent("raw").path
            var readers: [(String, [String])] = []
            if let python, run(python, ["-c", "import PIL"]) == 0 {
                readers.append(("Pillow", [python, "-c", "import sys; from PIL import Image; open(sys.argv[2], 'wb').write(Image.open(sys.argv[1]).tobytes())", path, raw]))
            }
            if vips { readers.append(("libvips", ["/usr/bin/vips", "rawsave", path, raw])) }
            for (name, command) in readers {
                XCTAssertEqual(run(command[0], Array(command.dropFirst())), 0, "\(name) could not read \(file)")
                XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: raw))),
                               try PixelDigest.packedBytes(photo), "\(name) on \(file)")
                checked += 1
            }
        }
        if checked == 0 { throw XCTSkip("neither Pillow nor vips is installed") }
    }

    private func run(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
