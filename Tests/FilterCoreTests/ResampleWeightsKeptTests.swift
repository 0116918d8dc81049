import FilterCore
import XCTest

/// Resampling weights are kept and reused by size (`ResampleWeights.init`): a kept set is the set made afresh, and
/// sizes, kernels and box reductions that differ are kept apart.
final class ResampleWeightsKeptTests: XCTestCase {
    func testKeptWeightsAreTheWeightsMadeAfresh() {
        let cases: [(ResampleKernel, Int, Int, BoxReduction?)] = [
            (.lanczos3, 576, 400, BoxReduction(factor: 8, originalSize: 4608)),
            (.lanczos3, 576, 400, nil),
            (.lanczos3, 576, 400, BoxReduction(factor: 8, originalSize: 4601)),
            (.lanczos3, 576, 400, BoxReduction(factor: 8, originalSize: 4608, reducedSize: 570)),
            (.bicubic, 576, 400, nil),
            (.lanczos3, 324, 225, BoxReduction(factor: 8, originalSize: 2592)),
            (.bilinear, 100, 300, nil),
            (.nearest, 100, 37, nil),
        ]
        for (kernel, inSize, outSize, reduced) in cases {
            let made = ResampleWeights(making: kernel, inSize: inSize, outSize: outSize, reduced: reduced)
            for _ in 0..<2 {  // made and kept, then kept
                let asked = ResampleWeights(kernel: kernel, inSize: inSize, outSize: outSize, reduced: reduced)
                XCTAssertEqual(asked.taps, made.taps, "\(kernel) \(inSize)→\(outSize) \(String(describing: reduced))")
                XCTAssertEqual(asked.indices, made.indices, "\(kernel) \(inSize)→\(outSize) \(String(describing: reduced))")
                XCTAssertEqual(asked.weights, made.weights, "\(kernel) \(inSize)→\(outSize) \(String(describing: reduced))")
            }
        }
        // The cases differ from one another, so a key that left out a field would have answered with another's.
        let a = ResampleWeights(kernel: .lanczos3, inSize: 576, outSize: 400, reduced: BoxReduction(factor: 8, originalSize: 4608))
        let b = ResampleWeights(kernel: .lanczos3, inSize: 576, outSize: 400, reduced: BoxReduction(factor: 8, originalSize: 4601))
        let c = ResampleWeights(kernel: .lanczos3, inSize: 576, outSize: 400,
                                reduced: BoxReduction(factor: 8, originalSize: 4608, reducedSize: 570))
        XCTAssertTrue(a.weights != b.weights, "the original size is in the key")
        XCTAssertTrue(a.weights != c.weights, "the box width is in the key")
    }
}
