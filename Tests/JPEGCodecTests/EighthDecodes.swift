import FilterCore
import Foundation
import JPEGCodec
import TestSupport
import XCTest

/// What the 1/8 DC-path tests share: a file decoded at 1/8 with the path on or off, and the check that a cut file is
/// libjpeg's to decode.
enum EighthDecodes {
    struct Failed: Error, Equatable { let message: String }

    typealias Decoded = (pixels: PixelBuffer, fromDC: Bool, warnings: [String])

    static func fixture(_ name: String) -> String { Fixtures.path("jpeg/" + name) }

    /// The decode at 1/8 with the DC path on or off: its pixels (whole, read a few rows at a time), whether they came
    /// from the DC path, and the decoder's warnings; or the error.
    static func decode(_ path: String, dc: Bool, failOn: FailOn = .error, fidelity: Fidelity = .high)
        -> Result<Decoded, Failed> {
        do {
            var limits = DecodeLimits(maxPixels: 1 << 28, maxMemory: 1 << 30)
            limits.failOn = failOn
            limits.fidelity = fidelity
            let decoder = try JPEGDecoder(path: path, limits: limits)
            decoder.readsDCScansOnly = dc
            try decoder.reduce(by: 8)
            let image = PixelBuffer(width: decoder.width, height: decoder.height, format: decoder.format)
            let base = try image.mutableHostBytes()
            while decoder.nextRow < decoder.height {
                let count = min(5, decoder.height - decoder.nextRow)
                try decoder.readRows(into: base + decoder.nextRow * image.rowStride, stride: image.rowStride, count: count)
            }
            return .success((image, decoder.readFromDCScans, decoder.fileWarnings))
        } catch {
            return .failure(Failed(message: "\(error)"))
        }
    }

    /// A cut file the DC path was asked to read decodes (or fails) exactly as libjpeg's decode of it does, with the
    /// same warnings, and not from the DC path.
    static func assertLibjpegs(_ dc: Result<Decoded, Failed>, _ full: Result<Decoded, Failed>, cut: Int,
                               file: StaticString = #filePath, line: UInt = #line) {
        switch (dc, full) {
        case (.success(let a), .success(let b)):
            XCTAssertFalse(a.fromDC, "cut at \(cut): not from the DC path", file: file, line: line)
            XCTAssertTrue((try? a.pixels.samples()) == (try? b.pixels.samples()), "cut at \(cut): libjpeg's pixels", file: file, line: line)
            XCTAssertEqual(a.warnings, b.warnings, "cut at \(cut)", file: file, line: line)
        case (.failure(let a), .failure(let b)):
            XCTAssertEqual(a, b, "cut at \(cut)", file: file, line: line)
        default:
            XCTFail("cut at \(cut): \(dc) against \(full)", file: file, line: line)
        }
    }
}
