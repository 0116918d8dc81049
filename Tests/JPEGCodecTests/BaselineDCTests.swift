import FilterCore
import Foundation
import JPEGCodec
import TestSupport
import XCTest

/// A baseline JPEG read at 1/8 from its DC coefficients (`jpeg_dc_baseline.c`): its one scan decoded with the AC codes
/// passed over without their values, in one pass or from three places at once. Every layout is libjpeg's 1/8 decode
/// bit for bit (4:2:0 chroma from 2×2 of each chroma block's coefficients, read again from where the block begins),
/// but at fidelity `fast`, where 4:2:0 chroma comes from each chroma block's DC. Restart markers are followed (the
/// lanes start at segments); several scans, `--fail-on warning`, and any scan that breaks or ends early are libjpeg's
/// to decode, with its messages.
final class BaselineDCTests: XCTestCase {
    func fixture(_ name: String) -> String { EighthDecodes.fixture(name) }

    /// Runs `body` with scans of at least `bytes` read from three places (0: every file).
    func withLanes<T>(from bytes: Int, _ body: () throws -> T) rethrows -> T {
        let was = JPEGDecoder.dcLaneBytes
        JPEGDecoder.dcLaneBytes = bytes
        defer { JPEGDecoder.dcLaneBytes = was }
        return try body()
    }

    func eighth(_ path: String, dc: Bool, failOn: FailOn = .error, fidelity: Fidelity = .high)
        -> Result<EighthDecodes.Decoded, EighthDecodes.Failed> {
        EighthDecodes.decode(path, dc: dc, failOn: failOn, fidelity: fidelity)
    }

    /// Grey, 4:4:4 and 4:2:0 give libjpeg's eighth exactly; one pass and three lanes give the same.
    func testBaselineEighthsAreLibjpegsExactly() throws {
        for name in ["baseline_grey_451x300.jpg", "baseline_444_451x300.jpg", "baseline_420_451x300.jpg", "baseline_420.jpg",
                     "grey.jpg", "restart_444.jpg", "baseline_420_restart3_451x300.jpg",
                     "baseline_grey_restart_rows_451x300.jpg"] {
            let full = try eighth(fixture(name), dc: false).get()
            let one = try withLanes(from: Int.max) { try eighth(fixture(name), dc: true).get() }
            let three = try withLanes(from: 0) { try eighth(fixture(name), dc: true).get() }
            XCTAssertTrue(one.1, "\(name): read from the DC coefficients")
            XCTAssertTrue(three.1, "\(name): read from three places")
            XCTAssertFalse(full.1)
            XCTAssertEqual(one.0.width, full.0.width, name)
            XCTAssertEqual(one.0.height, full.0.height, name)
            XCTAssertEqual(try one.0.samples(), try full.0.samples(), name)
            XCTAssertEqual(try three.0.samples(), try full.0.samples(), name)
            XCTAssertTrue(one.2.isEmpty, "\(name): \(one.2)")
        }
    }

    /// At `fast`, 4:2:0 chroma comes from each chroma block's DC, upsampled: a few codes from libjpeg's on average, up
    /// to 40 at colour edges; grey and 4:4:4 are exact still.
    func testFastTakesSubsampledChromaFromTheDC() throws {
        let cases: [(String, Double, Double)] = [
            ("baseline_grey_451x300.jpg", 0, 0), ("baseline_444_451x300.jpg", 0, 0),
            ("baseline_420_451x300.jpg", 2.5, 40), ("baseline_420.jpg", 3, 40),
        ]
        for (name, worstMean, worst) in cases {
            let full = try eighth(fixture(name), dc: false, fidelity: .fast).get()
            let one = try withLanes(from: Int.max) { try eighth(fixture(name), dc: true, fidelity: .fast).get() }
            let three = try withLanes(from: 0) { try eighth(fixture(name), dc: true, fidelity: .fast).get() }
            XCTAssertTrue(one.1, "\(name): read from the DC coefficients")
            XCTAssertTrue(three.1, "\(name): read from three places")
            XCTAssertFalse(full.1)
            XCTAssertEqual(one.0.width, full.0.width, name)
            XCTAssertEqual(one.0.height, full.0.height, name)
            let a = try one.0.samples(), b = try full.0.samples()
            XCTAssertEqual(a, try three.0.samples(), "\(name): three lanes give one pass's pixels")
            var total = 0.0
            for (x, y) in zip(a, b) { total += abs(Double(x) - Double(y)) }
            let mean = total / Double(a.count)
            let d = Difference.between(b, a, width: full.0.width, channels: full.0.format.channels)
            XCTAssertLessThanOrEqual(mean, worstMean, "\(name): mean difference \(mean)")
            XCTAssertLessThanOrEqual(d.worst, worst, "\(name): \(d)")
            if worst > 0 { XCTAssertGreaterThan(mean, 0.5, "\(name): chroma from the DC, not libjpeg's") }
            XCTAssertTrue(one.2.isEmpty, "\(name): \(one.2)")
        }
    }

    /// Components in scans of their own, `--fail-on warning` and other scales keep libjpeg's decode.
    func testOnlyOneInterleavedScanTakesThePath() throws {
        for name in ["baseline_420_three_scans_451x300.jpg"] {
            let dc = try withLanes(from: 0) { try eighth(fixture(name), dc: true).get() }
            let full = try eighth(fixture(name), dc: false).get()
            XCTAssertFalse(dc.1, name)
            XCTAssertEqual(try dc.0.samples(), try full.0.samples(), name)
        }
        XCTAssertFalse(try eighth(fixture("baseline_444_451x300.jpg"), dc: true, failOn: .warning).get().1, "fail-on warning")
        let decoder = try JPEGDecoder(path: fixture("baseline_444_451x300.jpg"))
        try decoder.reduce(by: 4)
        _ = try decoder.readAll()
        XCTAssertFalse(decoder.readFromDCScans, "a quarter needs AC coefficients")
    }

    /// A file cut anywhere decodes (or fails) exactly as libjpeg decodes it, with the same warnings, in one pass or
    /// three: the path takes only scans it reads to their end marker.
    func testACutFileIsLibjpegsToDecode() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bdc-cut-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["baseline_420_451x300.jpg", "baseline_420_restart3_451x300.jpg"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture(name)))
            for cut in [bytes.count - 1, bytes.count - 2, bytes.count - 3, bytes.count * 19 / 20, bytes.count / 2,
                        bytes.count / 8, 700] {
                let path = folder.appendingPathComponent("\(name)-cut\(cut).jpg").path
                try bytes.prefix(cut).write(to: URL(fileURLWithPath: path))
                let full = eighth(path, dc: false)
                for lanes in [0, Int.max] {
                    EighthDecodes.assertLibjpegs(withLanes(from: lanes) { eighth(path, dc: true) }, full, cut: cut)
                }
            }
        }
    }

    /// Damage anywhere (a byte changed, 300 seeded places, three files, one pass and three lanes) never crashes or
    /// hangs the path. Where it takes a file, libjpeg decodes the same file without a warning (the path refuses every
    /// code it cannot decode) to the same pixels.
    func testDamagedFilesNeverCrashThePath() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bdc-damage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SplitMix64(seed: 54)
        var taken = 0, refused = 0
        for name in ["baseline_420_451x300.jpg", "baseline_grey_451x300.jpg", "baseline_444_451x300.jpg",
                     "baseline_420_restart3_451x300.jpg", "baseline_grey_restart_rows_451x300.jpg"] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture(name))))
            for i in 0..<300 {
                var damaged = bytes
                let at = Int(random.next() % UInt64(bytes.count))
                damaged[at] = UInt8(truncatingIfNeeded: random.next())
                let path = folder.appendingPathComponent("\(i).jpg").path
                try Data(damaged).write(to: URL(fileURLWithPath: path))
                let lanes = i % 2 == 0 ? 0 : Int.max
                guard case .success(let result) = withLanes(from: lanes, { eighth(path, dc: true) }), result.1 else {
                    refused += 1
                    continue
                }
                taken += 1
                guard case .success(let plain) = eighth(path, dc: false) else {
                    XCTFail("\(name) damaged at \(at): the DC path took a file libjpeg refuses")
                    continue
                }
                XCTAssertTrue(plain.2.isEmpty, "\(name) damaged at \(at): libjpeg warned \(plain.2), the DC path took it")
                // Compared as a whole: a difference is one line, not two images of samples.
                XCTAssertTrue(try result.0.samples() == plain.0.samples(), "\(name) damaged at \(at): not libjpeg's pixels")
            }
        }
        XCTAssertGreaterThan(taken, 100, "damage to AC data that still decodes is taken")
        XCTAssertGreaterThan(refused, 10, "undecodable damage is left to libjpeg")
    }
}
