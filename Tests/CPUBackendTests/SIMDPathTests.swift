import CPUBackend
import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// The AVX2 + FMA convolution and resample loops against the portable Swift loops: the same sums in the same order, so they
/// differ only by FMA's single rounding (≤ a few float ulps of the working values). Every layout, every
/// separable kernel size the catalogue makes, images narrower and wider than the loops' 8- and 32-float steps.
final class SIMDPathTests: XCTestCase {
    override func tearDown() {
        CPUFeatures.avx2 = true
        super.tearDown()
    }

    func testAVX2ConvolutionsMatchThePortableLoops() throws {
        CPUFeatures.avx2 = true
        try XCTSkipUnless(CPUFeatures.avx2, "this CPU has no AVX2 + FMA: only the portable loops run here")
        let recipes: [(String, Recipe)] = [
            ("gaussian σ0.6", Recipe.chain([(.gaussianBlur, ["sigma": .number(0.6)])])),
            ("gaussian σ3", Recipe.chain([(.gaussianBlur, ["sigma": .number(3)])])),
            ("unsharp σ2", Recipe.chain([(.unsharpMask, ["sigma": .number(2), "amount": .number(1)])])),
            ("unsharp σ1 with a threshold", Recipe.chain([(.unsharpMask, ["sigma": .number(1), "amount": .number(0.8),
                                                                          "threshold": .number(0.02)])])),
            // A 2D kernel: every nonzero tap one shifted row of the padded window (sharpening on straight colour).
            ("convolve 5×5", Recipe.chain([(.convolve, ["kernel": .numbers((0..<25).map { Double([1, 4, 6, 4, 1][$0 / 5] * [1, -4, 6, 4, 1][$0 % 5]) })])])),
            ("convolve 3×3 premultiplied", Recipe.chain([(.convolve, ["kernel": .numbers([-1, -1, -1, -1, 9, -1, -1, -1, -1]),
                                                                      "preserveAlpha": false])])),
            // A vertical shrink adds its input rows into the output rows as they arrive (RowAccumulator).
            ("lanczos3 shrink ×5", Recipe.chain([(.resize, ["scale": .number(0.2), "kernel": "lanczos3"])])),
            // An enlargement's vertical pass reads a window of rows; both passes' AVX2 loops.
            ("bicubic enlarge ×1.5", Recipe.chain([(.resize, ["scale": .number(1.5), "kernel": "bicubic"])])),
            ("bilinear shrink ×0.9", Recipe.chain([(.resize, ["scale": .number(0.9), "kernel": "bilinear"])])),
            // A motion blur is a fixed sparse kernel over padded rows, summed like a 2D convolution.
            // The bilateral filter's likeness weights, eight pixels' distances at once.
            ("bilateral σs 2", Recipe.chain([(.bilateral, ["sigmaSpatial": .number(2), "sigmaRange": .number(0.15)])])),
            ("motion blur r4.5 at 33°", Recipe.chain([(.motionBlur, ["radius": .number(4.5), "angle": .number(33)])])),
            // A perspective widens its taps per pixel where the map shrinks (AVX2 up to 8 a side, then portable).
            ("perspective bicubic", Recipe.chain([(.perspective, ["corners": .numbers([5, 3, 36, 6, 33, 25, 2, 22]),
                                                                  "kernel": "bicubic"])])),
            ("perspective bilinear, strongly narrowing", Recipe.chain([(.perspective, [
                "corners": .numbers([0, 0, 40, 0, 26, 27, 14, 27]), "kernel": "bilinear"])])),
        ]
        var images = try TestImages.small()
        for width in [1, 7, 9, 33] {
            images.append(("emerald \(width) wide", try TestImages.crop("photos/emerald_crop_320x240_rgba8.png",
                                                                       x: 100, y: 40, width: width, height: 12)))
        }
        // Tall enough for the vertical pass's four-rows-at-once loop, and wider than its 1024-float column tile.
        for (width, height) in [(7, 61), (300, 45)] {
            images.append(("emerald \(width)×\(height)", try TestImages.crop("photos/emerald_crop_320x240_rgba8.png",
                                                                        x: 10, y: 20, width: width, height: height)))
        }
        for (label, recipe) in recipes {
            for (name, image) in images {
                CPUFeatures.avx2 = true
                let fast = try Renderer(backend: .cpu).render(recipe, images: ["main": image], format: .rgba32f)
                CPUFeatures.avx2 = false
                let portable = try Renderer(backend: .cpu).render(recipe, images: ["main": image], format: .rgba32f)
                let a = try Self.floats(fast), b = try Self.floats(portable)
                XCTAssertEqual(a.count, b.count)
                let worst = zip(a, b).map { abs($0 - $1) }.max() ?? 0
                XCTAssertLessThan(worst, 2e-5, "\(label) on \(name): AVX2 and portable loops differ by \(worst)")
            }
        }
    }

    static func floats(_ buffer: PixelBuffer) throws -> [Float] {
        let base = try buffer.hostBytes()
        return (0..<buffer.height).flatMap { y in
            Array(UnsafeBufferPointer(start: (base + y * buffer.rowStride).assumingMemoryBound(to: Float.self),
                                      count: buffer.width * 4))
        }
    }
}
