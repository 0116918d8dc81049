import CKernels
import XCTest

/// `fr_plane_warp_row` (one plane of 8-bit samples resampled by an affine map) against the kernels' definitions in
/// double: Keys' cubic (a = −½) and bilinear, taps outside the plane reading the background. Both the AVX2 loop and
/// the portable one, at every count from 1 to 19 (each remainder of the eight-sample loop) and on rows that run
/// inside, across and outside the plane.
final class PlaneWarpKernelTests: XCTestCase {
    static func keys(_ x: Double) -> Double {
        let t = abs(x)
        if t < 1 { return (1.5 * t - 2.5) * t * t + 1 }
        return t < 2 ? ((-0.5 * t + 2.5) * t - 4) * t + 2 : 0
    }

    /// The sample at (u, v) (sample-centre units) by the definition.
    static func reference(_ plane: [UInt8], width: Int, height: Int, stride: Int, u: Double, v: Double, taps: Int,
                          background: Double) -> Double {
        let kernel: (Double) -> Double = taps == 2 ? { max(0, 1 - abs($0)) } : keys
        let fu = u.rounded(.down), fv = v.rounded(.down), lo = 1 - taps / 2
        var sum = 0.0
        for j in 0..<taps {
            let row = Int(fv) + lo + j
            for i in 0..<taps {
                let column = Int(fu) + lo + i
                let value = row < 0 || row >= height || column < 0 || column >= width
                    ? background : Double(plane[row * stride + column])
                sum += value * kernel(Double(column) - u) * kernel(Double(row) - v)
            }
        }
        return min(255, max(0, sum))
    }

    func testRowsMatchTheDefinitionOnBothPaths() {
        let width = 53, height = 41, stride = 64
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return state >> 33 }
        // Smooth structure with noise on top, so taps at the wrong place show.
        var plane = [UInt8](repeating: 0, count: stride * height + 16)
        for y in 0..<height {
            for x in 0..<width {
                plane[y * stride + x] = UInt8(clamping: 40 + 3 * x + 2 * y + Int(next() % 24))
            }
        }
        // Angles all round, rows starting inside, before and past the plane, counts over every remainder.
        let lines: [(u0: Double, v0: Double, du: Double, dv: Double, count: Int)] = (0..<60).map { line in
            let angle = Double(line) * 0.37
            return (Double(Int(next() % 90)) - 20 + 0.173 * Double(line), Double(Int(next() % 70)) - 15 + 0.291 * Double(line),
                    cos(angle) * (line % 4 == 0 ? 0.6 : 1), sin(angle), 1 + line % 19 + (line % 3 == 0 ? 40 : 0))
        }
        defer { fr_kernels_set_avx2(1) }
        var outputs: [[UInt8]] = []
        var worst = 0.0, checked = 0
        for avx2 in [true, false] {
            fr_kernels_set_avx2(avx2 ? 1 : 0)
            var all = [UInt8]()
            plane.withUnsafeBufferPointer { base in
                for taps in [2, 4] {
                    var source = fr_plane_source(base: base.baseAddress, stride: stride, width: Int32(width),
                                                 height: Int32(height), taps: Int32(taps), background: 201)
                    for (line, (u0, v0, du, dv, count)) in lines.enumerated() {
                        var out = [UInt8](repeating: 7, count: count)
                        fr_plane_warp_row(&out, count, u0, v0, du, dv, &source)
                        for x in 0..<count {
                            let u = Double(x) * du + u0, v = Double(x) * dv + v0
                            let want = Self.reference(plane, width: width, height: height, stride: stride, u: u, v: v,
                                                      taps: taps, background: 201)
                            let d = abs(Double(out[x]) - want)
                            worst = max(worst, d)
                            checked += 1
                            XCTAssertLessThanOrEqual(d, 0.5 + 1e-3, "avx2 \(avx2) taps \(taps) line \(line) x \(x)")
                        }
                        all += out
                    }
                }
            }
            outputs.append(all)
        }
        XCTAssertEqual(outputs[0], outputs[1], "the AVX2 and portable loops give the same codes")
        XCTAssertGreaterThan(checked, 4000)
        print("plane warp: \(checked) samples, worst \(worst) of a code from the definition")
    }
}
