import CPUBackend
import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// A vertical shrink pulls its input a few rows at a time and adds each row into the output rows it weighs on
/// (RowAccumulator), instead of holding the window its taps span.
final class ShrinkAccumulationTests: XCTestCase {
    /// Shrinks from 2× to 15× (Lanczos taps spanning up to 91 rows), every kernel that averages, against the float64
    /// resampling reference within resize's tolerance; heights chosen so pulls and strips end mid-span.
    func testShrinksMatchTheReference() throws {
        let image = try TestImages.crop("photos/camera_512_gray8.png", x: 100, y: 0, width: 48, height: 512)
        for kernel in ["lanczos3", "bicubic", "bilinear"] {
            for height in [255, 100, 61, 34] {
                let recipe = Recipe.chain([(.resize, ["width": 48, "height": .number(Double(height)),
                                                      "kernel": .string(kernel)])])
                let rendered = try Renderer(backend: .cpu).render(recipe, images: ["main": image])
                let expected = ReferenceFilters.apply(.resize, recipe.nodes[0].params,
                                                      [try ReferenceImage(image, space: .linear)], space: .linear)
                XCTAssertEqual(rendered.height, height)
                if let failure = Difference.failure(expected.encoded(rendered.format, space: .linear), try rendered.samples(),
                                                    tolerance: FilterID.resize.spec.tolerance, stepFunction: false,
                                                    width: rendered.width, channels: rendered.format.channels) {
                    XCTFail("\(kernel) to \(height) rows: \(failure)")
                }
            }
        }
    }

    /// A crop below the top of a shrink starts the shrink part-way down: the rows it gives are the uncropped
    /// shrink's rows.
    func testACropBelowTheTopGetsTheSameRows() throws {
        let image = try TestImages.crop("photos/chelsea_451x300_rgb8.png", x: 0, y: 0, width: 64, height: 300)
        let shrink: (FilterID, [String: ParamValue]) = (.resize, ["width": 64, "height": 40, "kernel": "lanczos3"])
        let whole = try Renderer(backend: .cpu).render(Recipe.chain([shrink], workingSpace: .srgb), images: ["main": image])
        let cropped = try Renderer(backend: .cpu).render(
            Recipe.chain([shrink, (.crop, ["x": 0, "y": 23, "width": 64, "height": 11])], workingSpace: .srgb),
            images: ["main": image])
        let all = try whole.samples(), part = try cropped.samples(), row = 64 * 3
        XCTAssertEqual(part, Array(all[(23 * row)..<(34 * row)]))
    }

    /// The rows held do not grow with the shrink: 60× holds no more than 15× (a tap window would hold 361 input
    /// rows against 91), and far less than the window.
    func testHeldRowsDoNotGrowWithTheShrink() throws {
        func peak(height: Int) throws -> Int {
            let width = 512
            let image = PixelBuffer(width: width, height: height, format: .grey8)
            let bytes = try image.mutableHostBytes()
            var generator = SplitMix64(seed: 5)
            for i in 0..<image.byteCount {
                bytes.storeBytes(of: UInt8(truncatingIfNeeded: generator.next()), toByteOffset: i, as: UInt8.self)
            }
            let recipe = Recipe.chain([(.resize, ["width": .number(Double(width)), "height": 100, "kernel": "lanczos3"])])
            let plan = try recipe.plan(inputSizes: ["main": (width, height)])  // not optimized: no box at decode
            let stats = RenderStats()
            let out = try CPURenderer.render(plan, sources: ["main": BufferRowSource(image)], format: .grey8, stats: stats)
            XCTAssertEqual(out.height, 100)
            return stats.peakIntermediateBytes
        }
        let at15 = try peak(height: 1500), at60 = try peak(height: 6000)
        let inputRow = 512 * 16
        XCTAssertLessThanOrEqual(at60, at15, "60× held \(at60) B, 15× \(at15) B")
        XCTAssertLessThan(at60, 200 * inputRow, "a 60× Lanczos window alone is 361 rows (\(361 * inputRow) B)")
    }
}
