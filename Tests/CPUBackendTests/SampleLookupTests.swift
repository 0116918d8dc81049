import CKernels
import TestSupport
import XCTest

/// Per-channel tables on 8-bit samples (`fr_lookup8`): the AVX-512 VBMI path (64 bytes a step, the channel of each
/// byte from its position) and the portable loop give every sample its own channel's entry — one table for all
/// channels or three different ones, grey and RGB, at pixel counts that end inside a 64-byte block and inside a
/// pixel, in place and not; with alpha, alpha passes and transparent pixels' colour is cleared.
final class SampleLookupTests: XCTestCase {
    func testEverySampleTakesItsChannelsEntry() {
        var random = SplitMix64(seed: 88)
        defer { fr_kernels_set_avx2(1) }
        for vector in [true, false] {
            fr_kernels_set_avx2(vector ? 1 : 0)
            for channels in 1...4 {
                for alpha in channels % 2 == 0 ? [1] : [0] {
                    for sameTables in [true, false] {
                        var tables = (0..<768).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                        if sameTables { for i in 256..<768 { tables[i] = tables[i % 256] } }
                        for pixels in [0, 1, 21, 22, 63, 64, 65, 127, 128, 200, 1000, 4099] {
                            let source = (0..<(pixels * channels)).map { i -> UInt8 in
                                alpha == 1 && i % channels == channels - 1 && i % 7 == 3 ? 0 : UInt8(truncatingIfNeeded: random.next())
                            }
                            var out = [UInt8](repeating: 0xAA, count: source.count)
                            fr_lookup8(&out, source, pixels, Int32(channels), Int32(alpha), tables)
                            var expected = source
                            let colours = channels - alpha
                            for p in 0..<pixels {
                                for c in 0..<colours { expected[p * channels + c] = tables[c * 256 + Int(source[p * channels + c])] }
                                if alpha == 1 && source[p * channels + colours] == 0 {
                                    for c in 0..<colours { expected[p * channels + c] = 0 }
                                }
                            }
                            XCTAssertEqual(out, expected, "vector \(vector), \(channels) channels, alpha \(alpha), same tables \(sameTables), \(pixels) pixels")
                            // In place (a stage's fused steps), no sample is looked up twice.
                            var inPlace = source
                            inPlace.withUnsafeMutableBufferPointer { fr_lookup8($0.baseAddress, $0.baseAddress, pixels, Int32(channels), Int32(alpha), tables) }
                            XCTAssertEqual(inPlace, expected, "in place: vector \(vector), \(channels) channels, \(pixels) pixels")
                        }
                    }
                }
            }
        }
    }
}
