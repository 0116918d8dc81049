import FilterCore
import Foundation
import PNGCodec
import TestSupport
import TIFFCodec
import XCTest

/// TIFF in and out. The fixtures were written by Pillow, raw2tiff and tiffcp from PNG crops (Tests/Fixtures/README.md);
/// each lossless variant must decode to its source PNG's samples, read by libpng (not libtiff). Round trips through
/// our encoder must come back exactly and be readable by libtiff's own tiffcp.
final class TIFFCodecTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    func fixture(_ name: String) -> String { Fixtures.path("tiff/" + name) }

    func decode(_ path: String, limits: DecodeLimits = DecodeLimits()) throws -> (decoder: TIFFDecoder, samples: [UInt8]) {
        let decoder = try TIFFDecoder(path: path, limits: limits)
        return (decoder, [UInt8](try decoder.readAll().packedData()))
    }

    func expected(_ name: String) throws -> PixelBuffer { try PNGDecoder.decode(path: fixture(name)) }

    func testEveryLosslessVariantDecodesToItsSource() throws {
        for (file, source) in [("rgb8_deflate_strips.tif", "rgb8.expected.png"), ("rgb8_planar_deflate.tif", "rgb8.expected.png"),
                               ("rgb16_lzw_tiles.tif", "rgb16.expected.png"), ("grey16_miniswhite_packbits.tif", "grey16.expected.png"),
                               ("rgba8_unassociated.tif", "rgba8.expected.png"), ("palette8.tif", "palette8.expected.png"),
                               ("rgb8_icc_adobergb.tif", "rgb8.expected.png"), ("rgb8_orientation6.tif", "rgb8.expected.png")] {
            let reference = try expected(source)
            let (decoder, samples) = try decode(fixture(file))
            XCTAssertEqual([decoder.width, decoder.height], [96, 64], file)
            XCTAssertEqual(decoder.format, reference.format, file)
            XCTAssertEqual(samples, [UInt8](try reference.packedData()), "\(file) differs from \(source)")
        }
    }

    /// A multi-page file gives the page asked for (from 0), notes its other pages when none was asked for, and
    /// refuses a page it does not have with the count.
    func testPagesAreChosen() throws {
        let file = fixture("two_pages_rgb8_grey16.tif")
        let (first, firstSamples) = try decode(file)
        XCTAssertEqual(first.format, .rgb8)
        XCTAssertEqual(firstSamples, [UInt8](try expected("rgb8.expected.png").packedData()))
        XCTAssertTrue(first.fileWarnings.contains { $0.contains("has 2 pages") }, "\(first.fileWarnings)")
        let (second, secondSamples) = try decode(file, limits: DecodeLimits(page: 1))
        XCTAssertEqual(second.format, .grey16)
        XCTAssertEqual(secondSamples, [UInt8](try expected("grey16.expected.png").packedData()))
        XCTAssertEqual(second.fileWarnings, [])
        for page in [2, -1] {
            XCTAssertThrowsError(try decode(file, limits: DecodeLimits(page: page)), "page \(page)") { error in
                XCTAssertTrue("\(error)".contains("it has 2 pages (0 to 1)"), "\(error)")
            }
        }
        XCTAssertThrowsError(try decode(fixture("rgb8_deflate_strips.tif"), limits: DecodeLimits(page: 1))) { error in
            XCTAssertTrue("\(error)".contains("it has 1 page (0 to 0)"), "\(error)")
        }
    }

    /// Rows stream a band (a strip, or a row of tiles) at a time: rows asked for a few at a time, across band edges,
    /// are the rows of a whole read, for every layout (strips, tiles, planes, min-is-white, associated alpha, floats,
    /// and through the RGBA interface palette and YCbCr JPEG).
    func testRowsStreamBandByBand() throws {
        for name in ["rgb8_deflate_strips.tif", "rgb8_planar_deflate.tif", "rgb16_lzw_tiles.tif", "grey16_miniswhite_packbits.tif",
                     "rgba8_associated.tif", "rgb32f_lzw_tiles_bigendian.tif", "grey64f.tif", "pyramid_subifd_rgb8.tif",
                     "palette8.tif", "rgb8_jpeg_ycbcr.tif"] {
            let whole = try decode(fixture(name)).samples
            let decoder = try TIFFDecoder(path: fixture(name))
            let rowBytes = decoder.width * decoder.format.bytesPerPixel
            var rows = [UInt8](repeating: 0, count: rowBytes * decoder.height)
            var counts = [1, 2, 5, 13, 3]
            try rows.withUnsafeMutableBytes { raw in
                while decoder.nextRow < decoder.height {
                    let count = min(counts.removeFirst(), decoder.height - decoder.nextRow)
                    counts.append(count + 1)
                    try decoder.readRows(into: raw.baseAddress! + decoder.nextRow * rowBytes, stride: rowBytes, count: count)
                }
            }
            XCTAssertEqual(rows, whole, name)
            XCTAssertThrowsError(try rows.withUnsafeMutableBytes { try decoder.readRows(into: $0.baseAddress!, stride: rowBytes, count: 1) }, name)
        }
        // Many strips (our encoder writes strips of about 8 KiB): a photo read a few rows at a time is its samples.
        let photo = try PNGDecoder.decode(path: Fixtures.path("photos/chelsea_451x300_rgb8.png"))
        let path = scratch.appendingPathComponent("strips.tif").path
        let encoder = try TIFFEncoder(output: try OutputFile(path: path, replace: false), width: photo.width, height: photo.height,
                                      format: photo.format, options: TIFFWriteOptions(compression: .deflate))
        try encoder.writeRows(try photo.hostBytes(), stride: photo.rowStride, count: photo.height)
        try encoder.finish()
        let decoder = try TIFFDecoder(path: path)
        XCTAssertLessThan(decoder.decodingBytes, Double(photo.width * photo.height), "a band, not the picture")
        var rows = [UInt8](repeating: 0, count: photo.width * 3 * photo.height)
        try rows.withUnsafeMutableBytes { raw in
            while decoder.nextRow < decoder.height {
                let count = min(7, decoder.height - decoder.nextRow)
                try decoder.readRows(into: raw.baseAddress! + decoder.nextRow * photo.width * 3, stride: photo.width * 3, count: count)
            }
        }
        XCTAssertEqual(rows, [UInt8](try photo.packedData()))
        // Streaming holds a band, but the picture's size is still checked against the pixel limit before reading.
        XCTAssertThrowsError(try TIFFDecoder(path: path, limits: DecodeLimits(maxPixels: 100_000))) {
            XCTAssertTrue("\($0)".contains("451×300 pixels, over the limit of 100000"), "\($0)")
        }
        XCTAssertNoThrow(try TIFFDecoder(path: path, limits: DecodeLimits(maxMemory: 300_000)), "a band fits where the picture would not")
    }

    /// A pyramid's reduced copies (libvips writes them as pages after the image or as its SubIFDs) are offered as
    /// decode reductions at their factors and sizes, and a reduced decode reads the level itself: each level is the
    /// rounded 2 × 2 means of the one above it (libvips's default region shrink), read here from our decodes.
    /// The pages that are levels are not other pictures: no note about pages.
    func testPyramidLevelsAreReadInsteadOfThePage() throws {
        for name in ["pyramid_pages_rgb8.tif", "pyramid_subifd_rgb8.tif"] {
            let (full, fullSamples) = try decode(fixture(name))
            XCTAssertEqual([full.width, full.height], [129, 97], name)
            XCTAssertEqual(full.fileWarnings, [], name)
            let reductions = full.decodeReductions
            XCTAssertEqual(reductions.method, .levels, name)
            XCTAssertEqual(reductions.levels, [.init(factor: 2, width: 64, height: 48), .init(factor: 4, width: 32, height: 24),
                                               .init(factor: 8, width: 16, height: 12)], name)
            var above = (width: 129, samples: fullSamples)
            for level in reductions.levels {
                let decoder = try TIFFDecoder(path: fixture(name))
                try decoder.reduce(toWidth: level.width, height: level.height)
                XCTAssertEqual([decoder.width, decoder.height, decoder.storedWidth, decoder.storedHeight],
                               [level.width, level.height, 129, 97], name)
                XCTAssertEqual(decoder.format, .rgb8, name)
                let samples = [UInt8](try decoder.readAll().packedData())
                var means = [UInt8]()
                for y in 0..<level.height {
                    for x in 0..<level.width {
                        for c in 0..<3 {
                            let sum = [(0, 0), (1, 0), (0, 1), (1, 1)].reduce(0) {
                                $0 + Int(above.samples[((2 * y + $1.1) * above.width + 2 * x + $1.0) * 3 + c])
                            }
                            means.append(UInt8((sum + 2) / 4))
                        }
                    }
                }
                XCTAssertEqual(samples, means, "\(name) level 1/\(level.factor)")
                above = (level.width, samples)
            }
            XCTAssertThrowsError(try TIFFDecoder(path: fixture(name)).reduce(toWidth: 65, height: 48), name)
        }
        // A page that is a level can still be read as a page, its own smaller levels offered against it.
        let page = try TIFFDecoder(path: fixture("pyramid_pages_rgb8.tif"), limits: DecodeLimits(page: 1))
        XCTAssertEqual([page.width, page.height], [64, 48])
        XCTAssertEqual(page.decodeReductions.levels.map(\.factor), [2, 4])
        // Files without levels offer none.
        XCTAssertEqual(try TIFFDecoder(path: fixture("two_pages_rgb8_grey16.tif")).decodeReductions, .none)
    }

    /// Associated alpha is made straight: within the rounding its premultiplication lost (255 / 2a codes).
    func testAssociatedAlphaIsMadeStraight() throws {
        let reference = [UInt8](try expected("rgba8.expected.png").packedData())
        let (decoder, samples) = try decode(fixture("rgba8_associated.tif"))
        XCTAssertEqual(decoder.format, .rgba8)
        for p in stride(from: 0, to: samples.count, by: 4) {
            let a = Int(reference[p + 3])
            XCTAssertEqual(samples[p + 3], reference[p + 3])
            guard a > 0 else { continue }
            for c in 0..<3 {
                XCTAssertLessThanOrEqual(abs(Int(samples[p + c]) - Int(reference[p + c])), 255 / (2 * a) + 1, "pixel \(p / 4), alpha \(a)")
            }
        }
    }

    func testMetadataAndJPEGCompressedFiles() throws {
        let icc = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/compatibleWithAdobeRGB1998.icc"))))
        XCTAssertEqual(try TIFFDecoder(path: fixture("rgb8_icc_adobergb.tif")).metadata.iccProfile, icc)
        XCTAssertEqual(try TIFFDecoder(path: fixture("rgb8_orientation6.tif")).metadata.orientation, 6)
        XCTAssertEqual(try TIFFDecoder(path: fixture("rgb8_deflate_strips.tif")).metadata, ImageMetadata())
        // JPEG-compressed YCbCr goes through libtiff's RGBA interface: lossy, so within a PSNR of its source.
        let (decoder, samples) = try decode(fixture("rgb8_jpeg_ycbcr.tif"))
        XCTAssertEqual(decoder.format, .rgb8)
        let reference = [UInt8](try expected("rgb8.expected.png").packedData())
        let mse = zip(samples, reference).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) } / Double(samples.count)
        XCTAssertGreaterThan(10 * log10(255 * 255 / mse), 30)
    }

    func testRoundTripsAreExactAndLibtiffReadsThem() throws {
        for (source, compression) in [("rgb16.expected.png", TIFFWriteOptions.Compression.lzw), ("rgb8.expected.png", .deflate),
                                      ("rgba8.expected.png", .none), ("grey16.expected.png", .deflate)] {
            let image = try expected(source)
            let path = scratch.appendingPathComponent("\(source)-\(compression).tif").path
            let icc = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/compatibleWithAdobeRGB1998.icc"))))
            let encoder = try TIFFEncoder(output: try OutputFile(path: path, replace: false), width: image.width, height: image.height,
                                          format: image.format, options: TIFFWriteOptions(compression: compression),
                                          icc: image.format.channels >= 3 ? icc : nil)
            try encoder.writeRows(try image.hostBytes(), stride: image.rowStride, count: image.height)
            try encoder.finish()
            let (decoder, samples) = try decode(path)
            XCTAssertEqual(decoder.format, image.format, source)
            XCTAssertEqual(samples, [UInt8](try image.packedData()), "\(source) with \(compression)")
            if image.format.channels >= 3 { XCTAssertEqual(decoder.metadata.iccProfile, icc) }
            // libtiff's own tool copies it to an uncompressed file without a complaint.
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/tiffcp") {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/tiffcp")
                process.arguments = ["-c", "none", path, path + ".copy.tif"]
                let stderr = Pipe()
                process.standardError = stderr
                try process.run()
                process.waitUntilExit()
                XCTAssertEqual(process.terminationStatus, 0, source)
                XCTAssertEqual(String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "", source)
                XCTAssertEqual(try decode(path + ".copy.tif").samples, samples, "tiffcp's copy of \(source)")
            }
        }
    }

    /// EXIF kept into a TIFF is rewritten field by field: a phone JPEG's block (its APP1 segment) comes back with
    /// its camera text and GPS, and damaged blocks — any byte changed, cut anywhere — give a readable TIFF, never a
    /// trap, whatever fields survive.
    func testExifIsRewrittenIntoTheFileAndDamageNeverTraps() throws {
        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/metadata_gps_thumbnail_orientation6.jpg"))))
        let marker = try XCTUnwrap((0..<(jpeg.count - 10)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xE1 && Array(jpeg[($0 + 4)..<($0 + 10)]) == Array("Exif\0\0".utf8) })
        let length = Int(jpeg[marker + 2]) << 8 | Int(jpeg[marker + 3])
        let block = Array(jpeg[(marker + 10)..<(marker + 2 + length)])
        let image = try expected("rgb8.expected.png")
        func write(_ exif: [UInt8], name: String) throws -> String {
            let path = scratch.appendingPathComponent(name).path
            let encoder = try TIFFEncoder(output: try OutputFile(path: path, replace: false), width: image.width, height: image.height,
                                          format: image.format, metadata: OutputMetadata(exif: exif))
            try encoder.writeRows(try image.hostBytes(), stride: image.rowStride, count: image.height)
            try encoder.finish()
            return path
        }
        let kept = try TIFFDecoder(path: try write(block, name: "kept.tif"))
        let fields = try XCTUnwrap(kept.metadata.exif.flatMap(Exif.fields)).fields
        XCTAssertEqual(fields.first { $0.tag == 0x010F }?.bytes, Array("TestCam\0".utf8))
        XCTAssertTrue(fields.contains { $0.directory == .gps && $0.tag == 2 && $0.count == 3 }, "GPS latitude")
        XCTAssertFalse(fields.contains { $0.directory == .image && $0.tag == 0x0112 }, "the TIFF's own orientation is not EXIF's")
        var random = SplitMix64(seed: 24)
        for trial in 0..<120 {
            var damaged = block
            if trial % 3 == 0 {
                damaged = Array(damaged.prefix(Int(random.next() % UInt64(damaged.count))))
            } else {
                for _ in 0..<4 { damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(random.next() & 0xFF) }
            }
            let path = try write(damaged, name: "damaged\(trial).tif")
            let decoded = try TIFFDecoder(path: path)
            XCTAssertEqual([UInt8](try decoded.readAll().packedData()), [UInt8](try image.packedData()), "trial \(trial)")
        }
    }

    /// A BigTIFF (`exif_bigtiff_64x114.tif`, our classic TIFF with Exif and GPS directories rewritten with 8-byte
    /// counts, offsets and IFD8 pointers by scripts/make-bigtiff-exif-fixture.py) gives the same Exif fields as its
    /// classic twin; its directories cut or damaged anywhere give fewer fields, each the size its type says.
    func testABigTIFFGivesItsExif() throws {
        let classic = try XCTUnwrap(try TIFFDecoder(path: fixture("exif_classic_64x114.tif")).metadata.exif.flatMap(Exif.fields))
        let big = try XCTUnwrap(try TIFFDecoder(path: fixture("exif_bigtiff_64x114.tif")).metadata.exif.flatMap(Exif.fields))
        XCTAssertEqual(big.fields, classic.fields)
        XCTAssertTrue(big.fields.contains { $0.directory == .gps && $0.tag == 2 && $0.count == 3 }, "GPS latitude")
        XCTAssertTrue(big.fields.contains { $0.directory == .exif && $0.tag == 0x9000 }, "Exif version")
        XCTAssertEqual(big.fields.first { $0.tag == 0x010F }?.bytes, Array("TestCam\0".utf8))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture("exif_bigtiff_64x114.tif"))))
        let first = bytes[8..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
        func walk(_ file: [UInt8]) -> [ExifField] {
            Exif.fields(first: first, bigEndian: false, bigTIFF: true) { offset, count in
                offset >= 0 && count >= 0 && offset <= file.count - count ? Array(file[offset..<(offset + count)]) : nil
            }
        }
        let walked = walk(bytes)
        XCTAssertTrue(big.fields.allSatisfy(walked.contains), "the walk gives every field the reader keeps (and IFD0's layout fields)")
        for n in stride(from: 0, through: bytes.count, by: 7) {
            for field in walk(Array(bytes[..<n])) { XCTAssertEqual(field.bytes.count, field.count * Exif.typeSizes[field.type]) }
        }
        var random = SplitMix64(seed: 64)
        for _ in 0..<400 {
            var damaged = bytes
            // The directories lie after the strips: damage there.
            for _ in 0..<3 { damaged[first - 600 + Int(random.next() % UInt64(bytes.count - first + 600))] = UInt8(random.next() & 0xFF) }
            for field in walk(damaged) { XCTAssertEqual(field.bytes.count, field.count * Exif.typeSizes[field.type]) }
        }
    }

    func testDamagedFilesAreErrorsNeverTraps() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: fixture("rgb16_lzw_tiles.tif")))
        func attempt(_ bytes: Data) -> Error? {
            let path = scratch.appendingPathComponent(UUID().uuidString + ".tif").path
            FileManager.default.createFile(atPath: path, contents: bytes)
            do { _ = try decode(path); return nil } catch { return error }
        }
        for cut in [4, 8, 100, whole.count / 2, whole.count - 10] {
            let error = attempt(whole.prefix(cut))
            XCTAssertNotNil(error, "cut at \(cut) decoded")
            XCTAssertTrue(error is CodecError, "\(String(describing: error))")
        }
        var random = SplitMix64(seed: 3)
        for _ in 0..<150 {
            var bytes = [UInt8](whole)
            for _ in 0..<6 { bytes[8 + Int(random.next() % UInt64(bytes.count - 8))] = UInt8(random.next() & 0xFF) }
            if let error = attempt(Data(bytes)) { XCTAssertTrue(error is CodecError, "\(error)") }
        }
        XCTAssertThrowsError(try TIFFDecoder(path: fixture("rgb8_deflate_strips.tif"), limits: DecodeLimits(maxPixels: 100))) {
            XCTAssertEqual(($0 as? CodecError)?.kind, .tooLarge)
        }
    }
}
