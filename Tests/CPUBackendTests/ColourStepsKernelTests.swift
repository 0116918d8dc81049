@testable import CPUBackend
import CKernels
import FilterCore
import XCTest

/// `fr_colour_steps8_row` (colour matrices and thresholds straight from opaque 8-bit samples) gives the bits of the
/// block path it stands in for — decode, `PointKernel.run` — on the AVX2 loop and the portable one, at every width
/// from 1 to 27 (each remainder of the eight-pixel loop and its slack), grey and RGB, in both working spaces.
final class ColourStepsKernelTests: XCTestCase {
    func testRowsGiveTheBlockPathsBitsOnBothPaths() throws {
        let sepia = ColorMatrix(rows: [[0.393, 0.769, 0.189, 0], [0.349, 0.686, 0.168, 0], [0.272, 0.534, 0.131, 0], [0, 0, 0, 1]])
        let fading = ColorMatrix(rows: [[1.2, -0.1, 0, 0], [0, 0.9, 0.2, 0], [0.1, 0, 1.1, 0], [0.1, 0.2, 0, 0.6]],
                                 offset: SIMD4(-0.05, 0.02, 0.1, 0.05))
        let grey = ColorMatrix(rows: [[0.2126, 0.7152, 0.0722, 0], [0.2126, 0.7152, 0.0722, 0], [0.2126, 0.7152, 0.0722, 0],
                                      [0, 0, 0, 1]])
        let chains: [[PointOp]] = [[.matrix(grey)], [.threshold(0.45)], [.matrix(sepia)], [.matrix(fading)],
                                   [.matrix(grey), .threshold(0.3)], [.threshold(0.6), .matrix(fading)]]
        var state: UInt32 = 99
        func byte() -> UInt8 { state = state &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: state >> 24) }
        defer { fr_kernels_set_avx2(1) }
        var compared = 0
        for avx2 in [true, false] {
            fr_kernels_set_avx2(avx2 ? 1 : 0)
            for format in [PixelFormat.grey8, .rgb8] {
                for space in [WorkingSpace.srgb, .linear] {
                    for ops in chains {
                        let found = SamplePointStage.colourSteps(ops, stored: format, space: space)
                        let setup = try XCTUnwrap(found)
                        for n in 1...27 {
                            let samples = (0..<(n * format.channels)).map { _ in byte() }
                            var fast = [Float](repeating: .nan, count: 4 * n)
                            setup.steps.withUnsafeBufferPointer { steps in
                                fr_colour_steps8_row(&fast, samples, setup.channels, n, setup.table, steps.baseAddress,
                                                     Int32(steps.count))
                            }
                            let block = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: n)
                            defer { block.deallocate() }
                            samples.withUnsafeBytes { raw in
                                PixelConverter(format: format, space: space).decode(
                                    raw.baseAddress!, into: UnsafeMutableRawPointer(block).assumingMemoryBound(to: Float.self), width: n)
                            }
                            PointKernel.run(ops, from: block, to: block, y: 0, width: n, height: 1)
                            for x in 0..<n {
                                for c in 0..<4 {
                                    XCTAssertEqual(fast[4 * x + c].bitPattern, block[x][c].bitPattern,
                                                   "avx2 \(avx2) \(format) \(space) \(ops) n \(n) pixel \(x) channel \(c)")
                                }
                            }
                            compared += n
                        }
                    }
                }
            }
        }
        XCTAssertEqual(compared, 2 * 2 * 2 * 6 * (27 * 28 / 2))
        // Other steps, and samples with alpha, take the block path.
        XCTAssertNil(SamplePointStage.colourSteps([.gamma(2)], stored: .rgb8, space: .srgb))
        XCTAssertNil(SamplePointStage.colourSteps([.matrix(grey)], stored: .rgba8, space: .srgb))
        XCTAssertNil(SamplePointStage.colourSteps([.matrix(grey)], stored: .rgb16, space: .srgb))
    }
}
