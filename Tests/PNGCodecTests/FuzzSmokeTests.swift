import FilterCore
import Foundation
import PNGCodec
import TestSupport
import XCTest

/// Thousands of truncated and bit-flipped real PNGs: each is decoded or rejected with a PNGError, never a crash.
final class FuzzSmokeTests: XCTestCase {
    func testTruncatedAndCorruptedFilesNeverCrash() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sources = ["pngsuite/basn2c16.png", "pngsuite/basi3p08.png", "pngsuite/tbrn2c08.png",
                       "pngsuite/basn4a08.png", "photos/emerald_crop_320x240_rgba8.png"]
        var generator = SplitMix64(seed: 2026)
        var decoded = 0, rejected = 0
        let path = dir.appendingPathComponent("variant.png").path
        for source in sources {
            let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(source))))
            let variants = source.hasPrefix("photos") ? 150 : 600
            for i in 0..<variants {
                var bytes = original
                if i % 3 == 0 {
                    bytes = Array(bytes.prefix(Int(generator.next() % UInt64(bytes.count))))
                } else {
                    for _ in 0..<(1 + Int(generator.next() % 4)) {
                        let at = Int(generator.next() % UInt64(bytes.count))
                        bytes[at] ^= UInt8(1 << (generator.next() % 8))
                    }
                }
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                do {
                    _ = try PNGDecoder.decode(path: path, maxPixels: 1 << 22)
                    decoded += 1
                } catch is PNGError {
                    rejected += 1
                }
            }
        }
        XCTAssertEqual(decoded + rejected, 2550)
        XCTAssertGreaterThan(rejected, 1000)
    }
}
