import FilterCore
import Foundation
import XCTest

/// The vectorised pow/log2/exp2 against Double's libm, over the values pixels take (results from 10⁻⁶ to 10⁴).
final class FastMathTests: XCTestCase {
    func testPowIsWithinFloatPrecisionOfLibm() {
        var worst = 0.0, worstAt = (0.0, 0.0)
        for p in [0.01, 0.1, 0.3, 0.4545, 0.8333, 0.95, 1, 1.05, 1.2, 2.2, 2.4, 3, 5, 10] {
            var x = 1e-5
            while x < 64 {
                let lanes = SIMD4<Float>(Float(x), Float(x * 1.003), Float(x * 1.006), Float(x * 1.009))
                let got = FastMath.pow(lanes, Float(p))
                for lane in 0..<4 {
                    let want = Foundation.pow(Double(lanes[lane]), p)
                    guard want > 1e-6 && want < 1e4 else { continue }
                    let error = abs(Double(got[lane]) - want) / want
                    if error > worst { worst = error; worstAt = (Double(lanes[lane]), p) }
                }
                x *= 1.0137
            }
        }
        XCTAssertLessThan(worst, 2e-6, "worst relative error \(worst) at x = \(worstAt.0), p = \(worstAt.1)")
    }

    func testEdgesAndSigns() {
        XCTAssertEqual(FastMath.pow(SIMD4(0, 0, 0, 0), 0.5), SIMD4(repeating: 0))
        XCTAssertEqual(FastMath.pow(SIMD4(-1, -0.5, 0, 0), 2.2), SIMD4(repeating: 0), "x ≤ 0 gives 0")
        let signed = FastMath.signedPow(SIMD4(-0.25, 0.25, -4, 4), 0.5)
        for (got, want) in zip([signed[0], signed[1], signed[2], signed[3]], [-0.5, 0.5, -2, 2] as [Float]) {
            XCTAssertEqual(got, want, accuracy: 1e-6)
        }
        // Powers of two are exact in log2, integers exact in exp2.
        XCTAssertEqual(FastMath.log2(SIMD4(1, 2, 0.5, 1024)), SIMD4(0, 1, -1, 10))
        XCTAssertEqual(FastMath.exp2(SIMD4(0, 1, -3, 20)), SIMD4(1, 2, 0.125, 1_048_576))
        XCTAssertEqual(FastMath.exp2(SIMD4(repeating: -1000))[0], Float(pow(2.0, -126.0)), "clamped below, never NaN")
    }
}
