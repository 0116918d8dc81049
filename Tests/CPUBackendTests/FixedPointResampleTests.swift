import CKernels
@testable import CPUBackend
import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// Resizes of opaque 8-bit samples in the sRGB working space run in 16-bit fixed point where the taps are few
/// (`FixedPointResample`, `Sources/CKernels/resample_fixed.c`): the kernels against their integer definitions on both
/// SIMD paths at every row remainder; real photos against float64 resamples written from the kernels' definitions
/// (`ReferenceFilters.resample`: Catmull–Rom, Lanczos 3, the triangle), within 0.85 of a code.
final class FixedPointResampleTests: XCTestCase {
    override func tearDown() { CPUFeatures.avx2 = true }

    func testWeightsSumToOneAndStayNearTheirExactValues() throws {
        for kernel in [ResampleKernel.bilinear, .bicubic, .lanczos3] {
            for (input, output) in [(10, 15), (4224, 6336), (7, 6), (1, 3), (100, 251), (30, 28), (4224, 2112), (51, 21)] {
                let exact = ResampleWeights(kernel: kernel, inSize: input, outSize: output)
                let fixed = try XCTUnwrap(FixedPointResample(exact), "\(kernel) \(input) → \(output)")
                XCTAssertEqual(fixed.taps % 2, 0)
                for i in 0..<output {
                    let row = (0..<fixed.taps).map { Int(fixed.weights[i * fixed.taps + $0]) }
                    XCTAssertEqual(row.reduce(0, +), 1 << 14, "\(kernel) \(input) → \(output) output \(i)")
                    for t in 0..<exact.taps {
                        XCTAssertLessThan(abs(Double(row[t]) - Double(exact.weights[i * exact.taps + t]) * 16384), 1)
                        XCTAssertEqual(fixed.indices[i * fixed.taps + t], exact.indices[i * exact.taps + t])
                    }
                }
                // The vector loop's span reads consecutive inputs from each output's first index.
                for i in fixed.consecutive {
                    for t in 0..<exact.taps {
                        XCTAssertEqual(fixed.indices[i * fixed.taps + t], fixed.indices[i * fixed.taps] + Int32(t))
                    }
                }
            }
        }
        XCTAssertNotNil(FixedPointResample(ResampleWeights(kernel: .lanczos3, inSize: 200, outSize: 100)), "13 taps")
        XCTAssertNil(FixedPointResample(ResampleWeights(kernel: .lanczos3, inSize: 300, outSize: 100)), "19 taps")
        XCTAssertTrue(FixedPointResample.fits(kernel: .bicubic, inSize: 300, outSize: 100, reduced: nil))
        XCTAssertFalse(FixedPointResample.fits(kernel: .bicubic, inSize: 400, outSize: 100, reduced: nil))
        XCTAssertTrue(FixedPointResample.fits(kernel: .lanczos3, inSize: 100, outSize: 300, reduced: nil))
    }

    /// Both kernels on both paths give their integer definitions, every remainder of the two-pixel and sixteen-value
    /// steps, grey and RGB, rounded to samples and kept in 16 bits.
    func testKernelsGiveTheirIntegerDefinitionOnBothPaths() {
        var random = SplitMix64(seed: 5)
        for avx2 in [true, false] {
            CPUFeatures.avx2 = avx2
            for channels in [1, 3] {
                for output in Array(1...40) + [257, 1001] {
                    for kernel in [ResampleKernel.bilinear, .bicubic, .lanczos3] {
                      // An enlargement, and a shrink by about 2 (13 taps for Lanczos 3).
                      for input in [max(1, min(output, output * 2 / 3 + Int(random.next() % 3))),
                                    output * 2 + (output > 4 ? Int(random.next() % 3) : 0)] {
                        guard let fixed = FixedPointResample(ResampleWeights(kernel: kernel, inSize: input, outSize: output))
                        else { XCTFail("\(kernel) \(input) → \(output)"); continue }
                        let src = (0..<(input * channels)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                        var wide = [Int16](repeating: 0, count: output * channels)
                        var narrow = [UInt8](repeating: 0, count: output * channels)
                        var scratch = [UInt8](repeating: 0, count: (input + 2) * 4)
                        fr_resample_h8(&wide, nil, src, input, fixed.indices, fixed.weights, Int32(fixed.taps), output,
                                       Int32(channels), fixed.consecutive.lowerBound, fixed.consecutive.upperBound, &scratch)
                        fr_resample_h8(nil, &narrow, src, input, fixed.indices, fixed.weights, Int32(fixed.taps), output,
                                       Int32(channels), fixed.consecutive.lowerBound, fixed.consecutive.upperBound, &scratch)
                        for i in 0..<(output * channels) {
                            let (x, c) = (i / channels, i % channels)
                            var sum = 0
                            for t in 0..<fixed.taps {
                                sum += Int(fixed.weights[x * fixed.taps + t]) * Int(src[Int(fixed.indices[x * fixed.taps + t]) * channels + c])
                            }
                            let rounded = min(255, max(0, (sum + 8192) >> 14))
                            if Int(wide[i]) != (sum + 128) >> 8 || Int(narrow[i]) != rounded {
                                XCTFail("h8 avx2 \(avx2) c \(channels) \(kernel) \(input) → \(output) at \(i): \(wide[i]) / \(narrow[i]) for \((sum + 128) >> 8) / \(rounded)")
                                break
                            }
                        }
                      }
                    }
                    // The vertical pass: rows of a lobe's range (Lanczos 3 overshoots by a quarter), signed weights
                    // summing to 2¹⁴, odd and even counts.
                    let n = output * channels
                    for taps in [1, 2, 3, 5, 7, 8, 13, 16] {
                        // Wide lobes for few taps; more taps share the range, so the centre weight fits 16 bits.
                        let spread = taps > 8 ? 3000 : 8000
                        var weights = (0..<taps).map { _ in Int16(Int(random.next() % UInt64(spread)) - spread / 4) }
                        weights[taps / 2] = Int16(16384 - (weights.reduce(0) { $0 + Int($1) } - Int(weights[taps / 2])))
                        let rows = (0..<taps).map { _ in (0..<n).map { _ in Int16(Int(random.next() % 24481) - 4080) } }
                        var out = [UInt8](repeating: 0, count: n)
                        let copies = rows.map { row -> UnsafeMutablePointer<Int16> in
                            let p = UnsafeMutablePointer<Int16>.allocate(capacity: n)
                            p.initialize(from: row, count: n)
                            return p
                        }
                        defer { copies.forEach { $0.deallocate() } }
                        let pointers: [UnsafePointer<Int16>?] = copies.map { UnsafePointer($0) }
                        fr_resample_v8(&out, pointers, weights, Int32(taps), n)
                        for i in 0..<n {
                            var sum = 1 << 19
                            for t in 0..<taps { sum += Int(weights[t]) * Int(rows[t][i]) }
                            if Int(out[i]) != min(255, max(0, sum >> 20)) {
                                XCTFail("v8 avx2 \(avx2) n \(n) taps \(taps) at \(i): \(out[i]) for \(sum >> 20)")
                                break
                            }
                        }
                    }
                }
            }
        }
    }

    /// The optimizer puts a shrink's horizontal pass first only where both passes suit fixed point and the result
    /// reaches the output through moves: in linear light, before a convolution (which would read the rounding) or
    /// with too many taps, the vertical pass stays first.
    func testShrinksTurnTheirPassesOnlyForFixedPoint() throws {
        func order(_ steps: [(FilterID, [String: ParamValue])], _ space: WorkingSpace = .srgb) throws -> [Primitive.Axis] {
            var recipe = Recipe.chain(steps)
            recipe.workingSpace = space
            return Optimizer.optimize(try recipe.plan(inputSizes: ["main": (400, 300)])).plan.nodes.compactMap {
                if case .resample(let axis, _, _) = $0.primitive { return axis } else { return nil }
            }
        }
        let half: (FilterID, [String: ParamValue]) = (.resize, ["scale": 0.5, "kernel": "lanczos3"])
        XCTAssertEqual(try order([half]), [.horizontal, .vertical])
        XCTAssertEqual(try order([half, (.flip, ["direction": "horizontal"])]), [.horizontal, .vertical])
        XCTAssertEqual(try order([half], .linear), [.vertical, .horizontal])
        XCTAssertEqual(try order([half, (.convolve, ["kernel": .numbers([0, -1, 0, -1, 5, -1, 0, -1, 0])])]),
                       [.vertical, .horizontal])
        XCTAssertEqual(try order([(.resize, ["scale": 0.3, "kernel": "lanczos3"])]), [.vertical, .horizontal], "21 taps")
    }

    /// Real photos enlarged (both axes, one axis), narrowed by up to 7 and shrunk, grey and RGB, at sizes that leave
    /// every remainder of the kernels' steps, against float64 resamples from the definitions: within 0.85 of a code,
    /// both SIMD paths; the plan holds the horizontal pass unrounded and the vertical one as samples.
    func testPhotosMatchTheDefinition() throws {
        let photos = [("photos/chelsea_451x300_rgb8.png", PixelFormat.rgb8), ("photos/camera_512_gray8.png", .grey8)]
        let resizes: [(String, (Int, Int) -> (Int, Int))] = [
            ("bicubic", { w, h in (w * 3 / 2, h * 3 / 2) }), ("lanczos3", { w, h in (2 * w + 1, 2 * h) }),
            ("bilinear", { w, h in (w * 7 / 5 + 1, h * 4 / 3 + 1) }), ("bicubic", { w, h in (w * 2, h) }),
            ("lanczos3", { w, h in (max(1, w * 9 / 10), h * 5 / 4) }),
            // Narrowed by 2.4 with Lanczos 3 (15 taps), 3.5 with bicubic (15), 7 with bilinear (15); shrunk by 2 and
            // by 3 (its vertical pass first, in floats: 19 taps).
            ("lanczos3", { w, h in (max(1, w * 5 / 12), h) }), ("bicubic", { w, h in (max(1, w * 2 / 7), h * 3 / 2) }),
            ("bilinear", { w, h in (max(1, w / 7), h + 1) }), ("lanczos3", { w, h in (max(1, w / 2), max(1, h / 2)) }),
            ("lanczos3", { w, h in (max(1, w / 3), max(1, h / 3)) }),
        ]
        for avx2 in [true, false] {
            CPUFeatures.avx2 = avx2
            for (file, format) in photos {
                for (width, height) in [(1, 4), (5, 3), (17, 40), (67, 21), (130, 33)] {
                    let image = try TestImages.crop(file, x: 9, y: 5, width: width, height: height)
                    let reference = try ReferenceImage(image, space: .srgb)
                    for (kernel, size) in resizes {
                        let (w, h) = size(width, height)
                        var recipe = Recipe.chain([(.resize, ["width": .number(Double(w)), "height": .number(Double(h)),
                                                              "fit": "fill", "kernel": .string(kernel)])])
                        recipe.workingSpace = .srgb
                        let label = "\(kernel) \(file) \(width)×\(height) → \(w)×\(h) avx2 \(avx2)"
                        let plan = Optimizer.optimize(try recipe.plan(inputSizes: ["main": (width, height)])).plan
                            .choosingRepresentations(sources: ["main": SampleLayout(format: format, converted: false)],
                                                     output: format)
                        // Where the horizontal pass comes first with few enough taps (not a 5 → 2 Lanczos 3: 19): the
                        // height not shrunk, or shrunk by few enough taps too (the optimizer then turns the passes).
                        let resample = ResampleKernel(rawValue: kernel)!
                        let fixed = w != width && FixedPointResample.fits(kernel: resample, inSize: width, outSize: w, reduced: nil)
                            && (h >= height || FixedPointResample.fits(kernel: resample, inSize: height, outSize: h, reduced: nil))
                        if w != width || h != height {
                            XCTAssertEqual(plan.nodes[plan.output].representation,
                                           fixed ? .samples(format, source: "main") : .working, label)
                        }
                        if fixed && h != height {
                            XCTAssertEqual(plan.nodes[plan.nodes[plan.output].inputs[0]].representation,
                                           .fixedPoint(format, source: "main", fractionBits: 6), label)
                        }
                        let rendered = try Renderer(backend: .cpu).render(recipe, images: ["main": image])
                        let exact = ReferenceFilters.resample(reference, w, h, kernel: kernel)
                        let found = try rendered.hostBytes(), c = format.channels
                        var worst = 0.0, at = ""
                        for y in 0..<h {
                            for i in 0..<(w * c) {
                                let value = Double(found.load(fromByteOffset: y * rendered.rowStride + i, as: UInt8.self))
                                let want = min(255, max(0, exact[i / c, y][i % c] * 255))
                                if abs(value - want) > worst { (worst, at) = (abs(value - want), "row \(y) value \(i): \(value) for \(want)") }
                            }
                        }
                        XCTAssertLessThanOrEqual(worst, 0.85, "\(label): worst at \(at)")
                    }
                }
            }
        }
    }
}
