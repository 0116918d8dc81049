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
                let lanes = SIMD8<Float>((0..<8).map { Float(x * (1 + 0.0015 * Double($0))) })
                let got = FastMath.pow(lanes, Float(p))
                for lane in 0..<8 {
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
        XCTAssertEqual(FastMath.pow(SIMD8(repeating: 0), 0.5), SIMD8(repeating: 0))
        XCTAssertEqual(FastMath.pow(SIMD8(-1, -0.5, 0, 0, -1e-30, -3, 0, -0), 2.2), SIMD8(repeating: 0), "x ≤ 0 gives 0")
        let signed = FastMath.signedPow(SIMD8(-0.25, 0.25, -4, 4, -1, 1, 0, -0), 0.5)
        for (lane, want) in [-0.5, 0.5, -2, 2, -1, 1, 0, 0].enumerated() {
            XCTAssertEqual(signed[lane], Float(want), accuracy: 1e-6)
        }
        // Powers of two are exact in log2, integers exact in exp2.
        XCTAssertEqual(FastMath.log2(SIMD8(1, 2, 0.5, 1024, 4, 0.25, 8, 65536)), SIMD8(0, 1, -1, 10, 2, -2, 3, 16))
        XCTAssertEqual(FastMath.exp2(SIMD8(0, 1, -3, 20, 2, -1, 10, 0)), SIMD8(1, 2, 0.125, 1_048_576, 4, 0.5, 1024, 1))
        XCTAssertEqual(FastMath.exp2(SIMD8(repeating: -1000))[0], Float(pow(2.0, -126.0)), "clamped below, never NaN")
    }

    func testFloorAndRoundingAgreeWithLibm() {
        var x: Float = 0
        while x < 5000 {
            let lanes = SIMD8<Float>((0..<8).map { x + Float($0) * 0.125 })
            let floors = FastMath.floorToInteger(lanes), rounded = FastMath.roundHalfUp(lanes)
            for lane in 0..<8 {
                XCTAssertEqual(floors[lane], Int32(lanes[lane].rounded(.down)), "floor of \(lanes[lane])")
                XCTAssertEqual(rounded[lane], lanes[lane].rounded(.toNearestOrAwayFromZero), "rounding of \(lanes[lane])")
            }
            x += 0.999
        }
    }
}
