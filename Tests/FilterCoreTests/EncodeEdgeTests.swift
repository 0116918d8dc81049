import CKernels
@testable import FilterCore
import TestSupport
import XCTest

/// The 8-bit encoder (C: AVX2 eight pixels at a time, opaque groups without their divisions; SSE2 one at a time) against its definition written out here in
/// double precision: unpremultiply, clamp to [0, 1] (NaN to 0), for grey take the Rec. 709 luminance, encode (sRGB
/// of linear light, or the value itself), round half up; alpha clamped and rounded. The C path reads linear light through a table of 65 536 steps and rounds in float, so a code may differ
/// by one from the double-precision one only where a table step (or float rounding) crosses a half code; anywhere
/// else a difference is a bug.
final class EncodeEdgeTests: XCTestCase {
    func expected(_ v: SIMD4<Float>, channels: Int, space: WorkingSpace) -> (codes: [Int], nearHalf: Bool) {
        let a = Double(v[3])
        var nearHalf = false
        func code(_ s: Double) -> Int {
            Int(((space == .linear ? SRGB.toEncoded(min(max(s, 0), 1)) : s) * 255 + 0.5).rounded(.down))
        }
        let step = space == .linear ? 1.0 / 65536 : 1e-6
        let straight = (0..<3).map { c -> Double in
            var s = a > 0 ? Double(v[c]) / a : 0
            if !(s >= 0) { s = 0 }
            return min(s, 1)
        }
        // Grey is the Rec. 709 luminance of the clamped colour.
        let values = channels <= 2 ? [min(1, 0.2126 * straight[0] + 0.7152 * straight[1] + 0.0722 * straight[2])] : straight
        var codes = values.map { s -> Int in
            if code(s - step) != code(s + step) { nearHalf = true }
            return code(s)
        }
        if channels % 2 == 0 { codes.append(Int((min(max(a.isNaN ? 0 : a, 0), 1) * 255 + 0.5).rounded(.down))) }
        return (codes, nearHalf)
    }

    func testEncoderFollowsItsDefinition() {
        var random = SplitMix64(seed: 11)
        func unit() -> Float { Float(random.next() % 1_000_001) / 1_000_000 }
        var pixels: [SIMD4<Float>] = [SIMD4(.nan, 0.5, -0.1, 1), SIMD4(2, 0.5, 0.25, 0.5), SIMD4(0.3, 0.3, 0.3, 0),
                                      SIMD4(0.2, 0.1, 0.0, .nan), SIMD4(1.5, -0.0, .infinity, 1.2), SIMD4(0, 0, 0, 1)]
        for _ in 0..<20_000 {
            let a = random.next() % 4 == 0 ? 1 : unit() * 1.1
            pixels.append(SIMD4(unit() * 1.2 - 0.1, unit(), unit() * a, a))
        }
        // Runs of opaque pixels (the AVX2 loop skips its divisions for eight at a time), some colours out of range.
        for i in 0..<4_000 {
            let special: [Float] = [.nan, -.infinity, .infinity, -0.0, 1.0000001]
            pixels.append(SIMD4(i % 97 == 0 ? special[i / 97 % special.count] : unit() * 1.2 - 0.1, unit(), unit(), 1))
        }
        defer { fr_kernels_set_avx2(1) }
        for (space, avx2) in [(WorkingSpace.linear, true), (.srgb, true), (.linear, false), (.srgb, false)] {
            fr_kernels_set_avx2(avx2 ? 1 : 0)
            for format in [PixelFormat.grey8, .greyA8, .rgb8, .rgba8] {
                var out = [UInt8](repeating: 0, count: pixels.count * format.channels)
                pixels.withUnsafeBytes { raw in
                    PixelConverter(format: format, space: space).encode(raw.baseAddress!.assumingMemoryBound(to: Float.self),
                                                                        into: &out, width: pixels.count)
                }
                var wrong = 0
                for (i, v) in pixels.enumerated() {
                    let (codes, nearHalf) = expected(v, channels: format.channels, space: space)
                    let found = (0..<format.channels).map { Int(out[i * format.channels + $0]) }
                    if found != codes && !(nearHalf && zip(found, codes).allSatisfy { abs($0 - $1) <= 1 }) {
                        if wrong < 3 { XCTFail("\(space) \(format) AVX2 \(avx2) \(v): \(found), expected \(codes)") }
                        wrong += 1
                    }
                }
                XCTAssertEqual(wrong, 0, "\(space) \(format)")
            }
        }
    }
}
