import FilterCore
import FilterRecipe
import TestSupport
import VulkanBackend
import XCTest

/// Barriers only between dependent steps: an untimed render records fewer than one per step yet gives the timed
/// render's pixels exactly, and the synchronization validation the suite runs under finds no hazard (tearDown).
final class BarrierTests: VulkanTestCase {
    func testUntimedRendersBarrierOnlyBetweenDependentSteps() throws {
        let image = try TestImages.crop("photos/chelsea_451x300_rgb8.png", x: 0, y: 0, width: 160, height: 120)
        let recipes = try ["print-sharpen.json", "portrait-glow.json", "vintage.json", "web-thumbnail.json"].map { name in
            try Recipe(contentsOfFile: Fixtures.repository.appendingPathComponent("recipes/\(name)").path)
        } + [Recipe.chain([(.gaussianBlur, ["sigma": 2]), (.unsharpMask, ["sigma": 1]), (.vignette, [:])])]
        var saved = 0
        for (index, recipe) in recipes.enumerated() {
            let plan = Optimizer.optimize(try recipe.plan(inputSizes: ["main": (image.width, image.height)])).plan
            let timedStats = RenderStats(timeDeviceSteps: true), untimedStats = RenderStats()
            // Banded too, so buffers are handed from band to band.
            for bandLimit in [nil, 160 * 16 * 40] as [Int?] {
                let timed = try VulkanRenderer.render(plan, sources: ["main": image], format: .rgb8, stats: timedStats,
                                                      bandLimit: bandLimit)
                let untimed = try VulkanRenderer.render(plan, sources: ["main": image], format: .rgb8, stats: untimedStats,
                                                        bandLimit: bandLimit)
                XCTAssertEqual(try untimed.samples(), try timed.samples(), "recipe \(index), bands \(String(describing: bandLimit))")
            }
            XCTAssertLessThanOrEqual(untimedStats.barriers, timedStats.barriers, "recipe \(index)")
            saved += timedStats.barriers - untimedStats.barriers
            XCTAssertTrue(untimedStats.nodes.isEmpty, "no timestamps unless asked")
            XCTAssertFalse(timedStats.nodes.isEmpty)
        }
        XCTAssertGreaterThan(saved, 0, "independent steps (uploads, a node's passes in one band) share a barrier")
    }
}
