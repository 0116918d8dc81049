import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// `resize` with fit cover and position attention or entropy: libvips's smartcrop definitions, on images whose
/// interesting part is known. Agreement with vipsthumbnail on real photos is measured in BENCHMARKS.md
/// (scripts/bench-smartcrop.sh).
final class SmartCropTests: XCTestCase {
    /// CIE L*a*b* of sRGB colours as published (D65): red (53.24, 80.09, 67.20), white (100, 0, 0), mid grey
    /// 119 (50.0, 0, 0) to a hundredth.
    func testLabFollowsCIEWithD65() {
        let red = SmartCrop.lab(255, 0, 0), white = SmartCrop.lab(255, 255, 255), grey = SmartCrop.lab(119, 119, 119)
        XCTAssertEqual(red.l, 53.24, accuracy: 0.01)
        XCTAssertEqual(red.a, 80.09, accuracy: 0.01)
        XCTAssertEqual(red.b, 67.20, accuracy: 0.01)
        XCTAssertEqual(white.l, 100, accuracy: 0.001)
        XCTAssertEqual(white.a, 0, accuracy: 0.001)
        XCTAssertEqual(white.b, 0, accuracy: 0.001)
        XCTAssertEqual(grey.l, 50.0, accuracy: 0.1)
        XCTAssertEqual(grey.a, 0, accuracy: 0.001)
        let d65 = SmartCrop.xyz(255, 255, 255)
        XCTAssertEqual(d65.x, 95.047, accuracy: 0.001)
        XCTAssertEqual(d65.y, 100, accuracy: 0.001)
        XCTAssertEqual(d65.z, 108.883, accuracy: 0.001)
    }

    /// The reduction attention looks through keeps a flat image flat and averages a split one on its codes.
    func testReductionWorksOnCodes() {
        let flat = [UInt8](repeating: 77, count: 64 * 48 * 4)
        XCTAssertTrue(SmartCrop.reduced(flat, width: 64, height: 48, to: 32, 32).allSatisfy { $0 == 77 })
        var split = [UInt8]()
        for _ in 0..<64 { for x in 0..<64 { split += x < 32 ? [0, 0, 0, 255] : [200, 200, 200, 255] } }
        let half = SmartCrop.reduced(split, width: 64, height: 64, to: 1, 1)
        XCTAssertEqual(Int(half[0]), 100, "the mean of 0 and 200 on codes, not in linear light (124)")
    }

    /// A width×height grey image with a saturated red disc of radius 12 centred at (cx, cy) and random grey levels
    /// from column `noiseFrom` on.
    func image(width: Int, height: Int, disc: (Int, Int)?, noiseFrom: Int = .max) throws -> PixelBuffer {
        let out = PixelBuffer(width: width, height: height, format: .rgb8)
        var random = SplitMix64(seed: 3)
        var samples = [Int]()
        for y in 0..<height {
            for x in 0..<width {
                var rgb = [128, 128, 128]
                if x >= noiseFrom { let v = Int(random.next() % 256); rgb = [v, v, v] }
                if let (cx, cy) = disc, (x - cx) * (x - cx) + (y - cy) * (y - cy) <= 144 { rgb = [230, 20, 20] }
                samples += rgb
            }
        }
        try TrimTests.store(samples, in: out)
        return out
    }

    func crop(_ strategy: String, _ image: PixelBuffer, width: Int, height: Int, backend: Backend = .cpu) throws -> (Int, Int) {
        let recipe = Recipe.chain([(.resize, ["width": .number(Double(width)), "height": .number(Double(height)),
                                              "fit": "cover", "position": .string(strategy)])], workingSpace: .srgb)
        let out = try Renderer(backend: backend).render(recipe, images: ["main": image])
        XCTAssertEqual([out.width, out.height], [width, height])
        // Find the window by matching the output against the input's columns and rows (the scale is 1 here).
        let a = try image.samples(), b = try out.samples()
        for y in 0...(image.height - height) {
            for x in 0...(image.width - width) {
                var same = true
                outer: for j in 0..<height { for i in 0..<width * 3 where a[((y + j) * image.width + x) * 3 + i] != b[j * width * 3 + i] {
                    same = false
                    break outer
                } }
                if same { return (x, y) }
            }
        }
        XCTFail("the output is not a window of the input")
        return (-1, -1)
    }

    func testAttentionKeepsTheSaturatedDisc() throws {
        for (cx, cy) in [(240, 50), (30, 50), (150, 20)] {
            let picture = try image(width: 300, height: 100, disc: (cx, cy))
            let (x, _) = try crop("attention", picture, width: 100, height: 100)
            XCTAssertLessThanOrEqual(x, cx - 12, "disc at \(cx)")
            XCTAssertGreaterThanOrEqual(x + 100, cx + 12, "disc at \(cx)")
        }
        // Vertically too.
        let tall = try image(width: 80, height: 300, disc: (40, 260))
        let (_, y) = try crop("attention", tall, width: 80, height: 80)
        XCTAssertTrue(y <= 248 && y + 80 >= 272, "window at \(y)")
    }

    func testEntropyKeepsTheBusyThird() throws {
        let picture = try image(width: 300, height: 100, disc: nil, noiseFrom: 200)
        let (x, _) = try crop("entropy", picture, width: 100, height: 100)
        XCTAssertEqual(x, 200)
    }

    /// The compass needs no analysis: west keeps the left edge, east the right, the centre the middle.
    func testCompassPositions() throws {
        let picture = try image(width: 300, height: 100, disc: (240, 50), noiseFrom: 0)
        XCTAssertEqual(try crop("west", picture, width: 100, height: 100).0, 0)
        XCTAssertEqual(try crop("east", picture, width: 100, height: 100).0, 200)
        XCTAssertEqual(try crop("centre", picture, width: 100, height: 100).0, 100)
    }

    /// The analysis runs on the CPU before either backend renders: both crop the same window.
    func testBothBackendsCropTheSameWindow() throws {
        let picture = try image(width: 300, height: 100, disc: (240, 50))
        for strategy in ["attention", "entropy"] {
            XCTAssertEqual(try crop(strategy, picture, width: 100, height: 100, backend: .cpu).0,
                           try crop(strategy, picture, width: 100, height: 100, backend: .vulkan).0, strategy)
        }
    }

    /// On a photo scaled down, the window is chosen on the scaled image and --explain reports it.
    func testExplainReportsTheWindow() throws {
        let path = Fixtures.path("photos/chelsea_451x300_rgb8.png")
        let recipe = Recipe.chain([(.resize, ["width": 150, "height": 150, "fit": "cover", "position": "attention"])])
        let text = try Renderer(backend: .cpu).explain(recipe, inputs: ["main": path])
        XCTAssertTrue(text.contains("attention keeps the 150×150 window at ("), text)
        XCTAssertTrue(text.contains("of the 226×150 scaled image"), text)
    }
}
