import FilterCore
import PNGCodec
import FilterRecipe
import TestSupport
import VulkanBackend
import XCTest

/// Rendering in bands of rows (what the backend does when an image exceeds the device's buffer limit) gives exactly
/// the pixels of one whole-image pass, for every filter and recipe. Small artificial limits force many bands.
final class BandingTests: VulkanTestCase {
    /// Filters that read their input whole (quarter turns, transpose) cannot be banded: they must be refused
    /// clearly rather than rendered wrong. Windows taller than the limit are refused too: a row of a rotated or
    /// sheared image reads a slanted window as tall as the image is wide × the slope (tested below where it fits).
    /// A zoom blur, the local tone filters and noise reduction read whole too here: on these small images a zoom's
    /// default 20-pixel streak reaches most of the way to the centre, the tone filters' 30-pixel base spans the
    /// image, and noise reduction's chained windows (a σ 2 blur, the bilateral disc, the sharpen) reach 9 rows each
    /// way, more than a seventh of the image: every band of rows needs nearly every row (on a photo each needs a few).
    static let readWhole: Set<FilterID> = [.rotate, .transpose, .affine, .perspective, .zoomBlur, .highlightsShadows, .localContrast,
                                           .noiseReduction]

    /// Renders with the device's buffer limit divided by `parts` (relative to the largest whole buffer of the plan).
    func render(_ recipe: Recipe, _ images: [String: PixelBuffer], parts: Int?) throws -> PixelBuffer {
        let plan = try recipe.plan(inputSizes: images.mapValues { ($0.width, $0.height) })
        let largest = plan.nodes.map { $0.width * $0.height * 16 }.max()!
        let used = images.filter { recipe.usedInputs.contains($0.key) }
        let format = used["main"]?.format ?? .rgba8
        return try VulkanRenderer.render(plan, sources: used, format: format, bandLimit: parts.map { largest / $0 })
    }

    func testEveryFilterGivesTheSamePixelsInBands() throws {
        let images: [String: PixelBuffer] = [
            "main": TestImages.synthetic(width: 37, height: 130), "other": try TestImages.overlay(), "mask": try TestImages.mask(),
        ]
        var refused = Set<FilterID>()
        for id in FilterID.allCases {
            for (label, recipe) in ParameterSweep.recipes(for: id) {
                guard let whole = try? render(recipe, images, parts: nil) else { continue }
                for parts in [2, 7] {
                    do {
                        let banded = try render(recipe, images, parts: parts)
                        let d = Difference.between(try whole.samples(), try banded.samples(), width: whole.width,
                                                   channels: whole.format.channels)
                        XCTAssertEqual(d.worst, 0, "\(id) \(label) with 1/\(parts) of the buffer limit: \(d)")
                    } catch let error as VulkanError where error.kind == .tooLarge {
                        if label == "defaults" { refused.insert(id) }
                    }
                }
            }
        }
        XCTAssertEqual(refused, Self.readWhole, "at their defaults, only whole-input filters refuse banding")
    }

    /// Devices may dispatch as few as 65 535 work groups a dimension: a band never asks a kernel for more rows than
    /// the limit allows (simulated here at 2 groups, 32 rows) and gives the same pixels; a node wider than the x
    /// limit is refused clearly.
    func testWorkGroupLimitsAreKept() throws {
        let images: [String: PixelBuffer] = ["main": TestImages.synthetic(width: 37, height: 130)]
        for steps in [[(FilterID.gaussianBlur, ["sigma": 3] as [String: ParamValue])], [(.resize, ["height": 40])],
                      [(.rotate, ["degrees": 2]), (.sharpen, ["amount": 1])]] {
            let recipe = Recipe.chain(steps)
            let plan = try recipe.plan(inputSizes: ["main": (37, 130)])
            let whole = try VulkanRenderer.render(plan, sources: images, format: .rgba16)
            let limited = try VulkanRenderer.render(plan, sources: images, format: .rgba16, groupLimit: (x: 65535, y: 2))
            XCTAssertEqual(try limited.samples(), try whole.samples(), "\(steps)")
            let schedule = try BandSchedule(plan: plan, limit: .max, sourceRowBytes: [:], alignment: 256, groups: (65535, 2))
            XCTAssertGreaterThan(schedule.bands.count, 1, "\(steps)")
            XCTAssertLessThanOrEqual(schedule.capacity.max() ?? 0, 32, "no node computes more rows than 2 groups hold")
        }
        let plan = try Recipe.chain([(.invert, [:])]).plan(inputSizes: ["main": (37, 130)])
        XCTAssertThrowsError(try VulkanRenderer.render(plan, sources: images, format: .rgba16, groupLimit: (x: 2, y: 65535))) {
            XCTAssertEqual(($0 as? VulkanError)?.kind, .tooLarge, "\($0)")
        }
    }

    /// Rotations, affines and perspectives read a slanted window of input rows per band; where it fits they band bit-exactly.
    func testAffineResamplingIsBandedWhereItsWindowFits() throws {
        let images: [String: PixelBuffer] = ["main": TestImages.synthetic(width: 37, height: 130)]
        let steps: [(FilterID, [String: ParamValue])] = [
            (.rotate, ["degrees": 3, "kernel": "lanczos3"]), (.rotate, ["degrees": -4.5, "canvas": "crop"]),
            (.affine, ["matrix": .numbers([0.5, 0.02, 1, -0.03, 0.4, 2]), "width": 20, "height": 60]),
            (.perspective, ["corners": .numbers([2, 3, 35, 8, 33, 125, 4, 118]), "kernel": "bilinear"]),
        ]
        for step in steps {
            let recipe = Recipe.chain([step])
            let whole = try render(recipe, images, parts: nil)
            for parts in [2, 3] {
                let banded = try render(recipe, images, parts: parts)
                let d = Difference.between(try whole.samples(), try banded.samples(), width: whole.width,
                                           channels: whole.format.channels)
                XCTAssertEqual(d.worst, 0, "\(step) with 1/\(parts) of the buffer limit: \(d)")
            }
        }
    }

    func testShrinkOnDecodeGivesTheSamePixelsInBands() throws {
        let coffee = try PNGDecoder.decode(path: Fixtures.repository.appendingPathComponent("samples/coffee_600x400_rgb8.png").path)
        let recipe = Recipe.chain([(.resize, ["width": 20])])
        let plan = Optimizer.optimize(try recipe.plan(inputSizes: ["main": (600, 400)])).plan
        XCTAssertTrue(plan.nodes.contains { $0.primitive == .boxReduce(x: 3, y: 3) })
        let whole = try VulkanRenderer.render(plan, sources: ["main": coffee], format: .rgb8)
        let banded = try VulkanRenderer.render(plan, sources: ["main": coffee], format: .rgb8, bandLimit: 600 * 16 * 250)
        XCTAssertEqual(try banded.samples(), try whole.samples())
    }

    func testEveryRecipeGivesTheSamePixelsInBands() throws {
        for (name, recipe, paths) in try RecipeBackendTests.recipes() {
            let images = try paths.mapValues { try TestImages.decode(path: $0) }
            let whole = try render(recipe, images, parts: nil)
            let banded = try render(recipe, images, parts: 4)
            XCTAssertEqual(try banded.samples(), try whole.samples(), name)
        }
    }

    /// Long renders are cut into submits of bounded work (drivers end a submit that runs for seconds): with a tiny
    /// budget of pixel-taps a render takes many submits and bands and gives the pixels of one; a node read whole
    /// (a quarter turn) is not cut into needless bands; the schedule's heaviest dispatch stays within the budget.
    func testWorkIsCutIntoBoundedSubmitsWithTheSamePixels() throws {
        let images: [String: PixelBuffer] = ["main": TestImages.synthetic(width: 37, height: 130)]
        for steps in [[(FilterID.gaussianBlur, ["sigma": 3] as [String: ParamValue])],
                      [(.unsharpMask, ["sigma": 2, "amount": 1]), (.vignette, ["intensity": 0.5])],
                      [(.median, ["radius": 2]), (.resize, ["height": 40])],
                      [(.dilate, ["radius": 5, "shape": "disc"]), (.erode, ["radius": 4])],
                      [(.zoomBlur, ["amount": 30, "centerY": 0.2]), (.motionBlur, ["radius": 5, "angle": 60])]] {
            let recipe = Recipe.chain(steps)
            let plan = try recipe.plan(inputSizes: ["main": (37, 130)])
            let wholeStats = RenderStats(), cutStats = RenderStats()
            let whole = try VulkanRenderer.render(plan, sources: images, format: .rgba16, stats: wholeStats)
            let cut = try VulkanRenderer.render(plan, sources: images, format: .rgba16, stats: cutStats, workLimit: 20_000)
            XCTAssertEqual(try cut.samples(), try whole.samples(), "\(steps)")
            XCTAssertEqual(wholeStats.submits, 1, "\(steps)")
            XCTAssertGreaterThan(cutStats.submits, 2, "\(steps)")
            let schedule = try BandSchedule(plan: plan, limit: .max, sourceRowBytes: [:], alignment: 256,
                                            groups: (65535, 65535), workLimit: 20_000)
            XCTAssertGreaterThan(schedule.bands.count, 1, "\(steps)")
            XCTAssertTrue(schedule.bands.dropLast().allSatisfy { $0.count >= 16 }, "bands of one work group at least: \(schedule.bands)")
        }
        let turn = try Recipe.chain([(.rotate, ["degrees": 90])]).plan(inputSizes: ["main": (37, 130)])
        let schedule = try BandSchedule(plan: turn, limit: .max, sourceRowBytes: [:], alignment: 256,
                                        groups: (65535, 65535), workLimit: 1)
        XCTAssertEqual(schedule.bands.count, 1, "a quarter turn reads its input whole: bands would only repeat it")
    }
}
