@testable import CPUBackend
import CKernels
import FilterCore
import XCTest

/// `SparseTaps` reading working rows in place (edge columns tapping their clamped pixels) gives, bit for bit, the
/// sums of each tap in order with the column clamped to the row — fused on the AVX2 path as its loop fuses, unfused
/// on the portable one — at every width from 1 to 21 (narrow rows take the padded copy), rows clamped at the top and
/// bottom as a window's view clamps them.
final class SparseTapsTests: XCTestCase {
    func testInPlaceSumsAreTheClampedTapsInOrder() {
        let offsets = [(dx: -3, dy: -1), (dx: 0, dy: 0), (dx: 2, dy: 1), (dx: 3, dy: -1), (dx: -1, dy: 2)]
        let weights: [Float] = [0.13, 0.41, -0.07, 0.29, 0.24]
        let taps = SparseTaps(offsets: offsets, weights: weights)
        var state: UInt32 = 7
        func unit() -> Float { state = state &* 1_664_525 &+ 1_013_904_223; return Float(state >> 8) / Float(1 << 24) * 1.2 - 0.1 }
        defer { fr_kernels_set_avx2(1) }
        for avx2 in [true, false] {
            fr_kernels_set_avx2(avx2 ? 1 : 0)
            for width in 1...21 {
                let height = 6
                var rows = (0..<(width * height * 4)).map { _ in unit() }
                rows.withUnsafeMutableBytes { raw in
                    let view = RowView(base: raw.baseAddress!, first: 0, count: height, rowBytes: width * 16)
                    var out = [Float](repeating: .nan, count: width * height * 4)
                    out.withUnsafeMutableBufferPointer { o in
                        taps.apply(0..<height, input: view, width: width, straight: false, avx2: avx2 && fr_kernels_avx2() != 0,
                                   into: o.baseAddress!, first: 0)
                    }
                    for y in 0..<height {
                        for x in 0..<width {
                            var want = SIMD4<Float>()
                            for (n, o) in offsets.enumerated() {
                                let v = view.pixels(y + o.dy)[min(max(x + o.dx, 0), width - 1)]
                                for c in 0..<4 {
                                    want[c] = avx2 && fr_kernels_avx2() != 0 ? want[c].addingProduct(v[c], weights[n])
                                        : want[c] + v[c] * weights[n]
                                }
                            }
                            for c in 0..<4 {
                                XCTAssertEqual(out[4 * (y * width + x) + c].bitPattern, want[c].bitPattern,
                                               "avx2 \(avx2) width \(width) pixel \(x), \(y) channel \(c)")
                            }
                        }
                    }
                }
            }
        }
    }
}
