import FilterCore
import Foundation
import JPEGCodec
import TestSupport
import XCTest

/// A progressive JPEG read at 1/8 from its DC scans alone (`fr_jpeg_reader_dc_image`): grey is libjpeg's 1/8 decode
/// bit for bit (its 1×1 inverse DCT is the DC value); colour differs from libjpeg's only in chroma, which comes from
/// each chroma block's DC where libjpeg's scaled decode takes 2×2 of its coefficients. Everything else — other
/// scales, baseline files, `--fail-on warning`, and any file that ends or breaks before its end marker — is libjpeg's
/// decode as before, with its messages.
final class ProgressiveDCTests: XCTestCase {
    func fixture(_ name: String) -> String { EighthDecodes.fixture(name) }

    func eighth(_ path: String, dcScans: Bool, failOn: FailOn = .error) -> Result<EighthDecodes.Decoded, EighthDecodes.Failed> {
        EighthDecodes.decode(path, dc: dcScans, failOn: failOn)
    }

    func testGreyIsLibjpegsEighthExactly() throws {
        let dc = try eighth(fixture("progressive_grey_451x300.jpg"), dcScans: true).get()
        let full = try eighth(fixture("progressive_grey_451x300.jpg"), dcScans: false).get()
        XCTAssertTrue(dc.1, "read from the DC scans")
        XCTAssertFalse(full.1)
        XCTAssertEqual(dc.0.width, 57)
        XCTAssertEqual(dc.0.height, 38)
        XCTAssertEqual(try dc.0.samples(), try full.0.samples())
    }

    /// Colour at 4:2:0 (with restart markers, and with each component's DC in scans of its own refined twice), 4:4:4
    /// and 4:2:2: libjpeg's eighth exactly where chroma is at full resolution (its 1×1 inverse DCT and its Y'CbCr
    /// conversion's rounding), and where it is subsampled 1.4–1.7 codes apart on average and up to 28 at colour edges (chroma's
    /// detail inside a block is what libjpeg's 2×2 keeps and the DC drops).
    func testColourIsLibjpegsEighthButForChroma() throws {
        let cases: [(String, Double, Double)] = [
            ("progressive_444_451x300.jpg", 0, 0), ("progressive_420_restart_451x300.jpg", 2.5, 40),
            ("progressive_420_dc_apart_451x300.jpg", 2.5, 40), ("progressive_422.jpg", 2, 20),
        ]
        for (name, worstMean, worst) in cases {
            let dc = try eighth(fixture(name), dcScans: true).get()
            let full = try eighth(fixture(name), dcScans: false).get()
            XCTAssertTrue(dc.1, "\(name): read from the DC scans")
            XCTAssertEqual(dc.0.width, full.0.width, name)
            XCTAssertEqual(dc.0.height, full.0.height, name)
            let a = try dc.0.samples(), b = try full.0.samples()
            var total = 0.0
            for (x, y) in zip(a, b) { total += abs(Double(x) - Double(y)) }
            let mean = total / Double(a.count)
            let d = Difference.between(b, a, width: full.0.width, channels: 3)
            XCTAssertLessThanOrEqual(mean, worstMean, "\(name): mean difference \(mean)")
            XCTAssertLessThanOrEqual(d.worst, worst, "\(name): \(d)")
            XCTAssertTrue(dc.2.isEmpty, "\(name): \(dc.2)")
        }
    }

    /// Other scales and `--fail-on warning` (which must see every scan's data) keep libjpeg's decode (baseline files:
    /// BaselineDCTests).
    func testOnlyEighthsTakeTheDCPath() throws {
        XCTAssertFalse(try eighth(fixture("progressive_444_451x300.jpg"), dcScans: true, failOn: FailOn.warning).get().1, "fail-on warning")
        // Megabytes after the end marker: the path reads the rest of a file whole, so a file far larger than the
        // samples it codes is left to libjpeg, which stops at the marker.
        var padded = try Data(contentsOf: URL(fileURLWithPath: fixture("progressive_444_451x300.jpg")))
        let plain = try eighth(fixture("progressive_444_451x300.jpg"), dcScans: false).get()
        padded.append(Data(repeating: 0x5A, count: 3 << 20))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("padded-\(UUID().uuidString).jpg").path
        try padded.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let long = try eighth(path, dcScans: true).get()
        XCTAssertFalse(long.1, "a file of 3 MiB more than its samples")
        XCTAssertEqual(try long.0.samples(), try plain.0.samples())
        let decoder = try JPEGDecoder(path: fixture("progressive_444_451x300.jpg"))
        try decoder.reduce(by: 4)
        _ = try decoder.readAll()
        XCTAssertFalse(decoder.readFromDCScans, "a quarter needs AC coefficients")
    }

    /// A file cut anywhere — in a DC scan, between scans, in the AC scans, before the end marker — decodes (or fails)
    /// exactly as libjpeg decodes it, with the same warnings: the DC path takes only files it reads to their end.
    func testACutFileIsLibjpegsToDecode() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture("progressive_420_dc_apart_451x300.jpg")))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dc-cut-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for cut in [bytes.count - 1, bytes.count - 2, bytes.count * 19 / 20, bytes.count * 3 / 4, bytes.count / 2,
                    bytes.count / 4, bytes.count / 8, 700] {
            let path = folder.appendingPathComponent("cut\(cut).jpg").path
            try bytes.prefix(cut).write(to: URL(fileURLWithPath: path))
            EighthDecodes.assertLibjpegs(eighth(path, dcScans: true), eighth(path, dcScans: false), cut: cut)
        }
    }

    /// Damage anywhere in the file (a byte changed, 400 seeded places, three files) never crashes or hangs the DC
    /// path; where it takes the file, it gives an image of the right size.
    func testDamagedFilesNeverCrashTheDCPath() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dc-damage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SplitMix64(seed: 55)
        var taken = 0
        for name in ["progressive_420_restart_451x300.jpg", "progressive_420_dc_apart_451x300.jpg", "progressive_grey_451x300.jpg"] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture(name))))
            for i in 0..<400 {
                var damaged = bytes
                let at = Int(random.next() % UInt64(bytes.count))
                damaged[at] = UInt8(truncatingIfNeeded: random.next())
                let path = folder.appendingPathComponent("\(i).jpg").path
                try Data(damaged).write(to: URL(fileURLWithPath: path))
                if case .success(let result) = eighth(path, dcScans: true), result.1 {
                    taken += 1
                    XCTAssertEqual(result.0.width, 57)
                    XCTAssertEqual(result.0.height, 38)
                }
            }
        }
        XCTAssertGreaterThan(taken, 100, "most changes fall in AC data, which the DC path passes over")
    }
}
