import CKernels
import XCTest

/// `fr_luminance_row` and `fr_sobel_row` give the bits of their definitions written out in Swift (the products and
/// sums in the order the header states, none fused), on the AVX2 loop and the portable one, at every width from 1 to
/// 19 (each remainder of the eight-pixel loop), on values beyond [0, 1] as working values may be.
final class LuminanceKernelTests: XCTestCase {
    func testRowsGiveTheDefinitionsBitsOnBothPaths() {
        var state: UInt32 = 12345
        func unit() -> Float { state = state &* 1_664_525 &+ 1_013_904_223; return Float(state >> 8) / Float(1 << 24) * 1.4 - 0.2 }
        defer { fr_kernels_set_avx2(1) }
        for avx2 in [true, false] {
            fr_kernels_set_avx2(avx2 ? 1 : 0)
            for n in 1...19 {
                let rgba = (0..<(4 * n)).map { _ in unit() }
                var lum = [Float](repeating: .nan, count: n)
                fr_luminance_row(&lum, rgba, n)
                for i in 0..<n {
                    let r = rgba[4 * i], g = rgba[4 * i + 1], b = rgba[4 * i + 2]
                    let want: Float = 0.2126 * r + 0.7152 * g + 0.0722 * b
                    XCTAssertEqual(lum[i].bitPattern, want.bitPattern, "avx2 \(avx2) n \(n) pixel \(i)")
                }
                let rows = (0..<3).map { _ in (0..<(n + 2)).map { _ in unit() } }
                var out = [Float](repeating: .nan, count: 4 * n)
                fr_sobel_row(&out, rows[0], rows[1], rows[2], n)
                for x in 0..<n {
                    let a = rows[0], b = rows[1], c = rows[2]
                    let gx = (a[x + 2] + 2 * b[x + 2] + c[x + 2]) - (a[x] + 2 * b[x] + c[x])
                    let gy = (c[x] + 2 * c[x + 1] + c[x + 2]) - (a[x] + 2 * a[x + 1] + a[x + 2])
                    let m = (gx * gx + gy * gy).squareRoot() / 4
                    XCTAssertEqual(Array(out[(4 * x)..<(4 * x + 4)]).map(\.bitPattern), [m, m, m, 1].map(\.bitPattern),
                                   "avx2 \(avx2) n \(n) pixel \(x)")
                }
            }
        }
    }
}
