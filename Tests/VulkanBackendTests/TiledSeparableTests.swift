import FilterCore
import FilterRecipe
import TestSupport
import VulkanBackend
import XCTest

/// The shared-memory horizontal pass (GPUs) against the plain one (software devices): the same sums in the same
/// order, so the same floats — with taps fitting one round and needing two (σ 130: 781 taps, two rounds of 512), rows narrower and wider
/// than a 256-pixel group, and groups stepping over rows when the device allows few groups in y.
final class TiledSeparableTests: VulkanTestCase {
    func testTiledHorizontalPassesGiveThePlainPassesFloats() throws {
        let wide = try TestImages.crop("photos/chelsea_451x300_rgb8.png", x: 0, y: 0, width: 300, height: 24)
        let images = try TestImages.small().prefix(3).map { $0.image } + [wide]
        let recipes = [Recipe.chain([(.gaussianBlur, ["sigma": 0.6])]), Recipe.chain([(.gaussianBlur, ["sigma": 3])]),
                       Recipe.chain([(.gaussianBlur, ["sigma": 130])]),
                       Recipe.chain([(.unsharpMask, ["sigma": 2, "amount": 1])])]
        for (r, recipe) in recipes.enumerated() {
            for image in images {
                let plan = Optimizer.optimize(try recipe.plan(inputSizes: ["main": (image.width, image.height)])).plan
                // Two groups in y (32 rows a dispatch) where the blur's reach lets bands be that short.
                let limits: [(x: Int, y: Int)?] = r == 2 ? [nil] : [nil, (x: 65535, y: 2)]
                for groupLimit in limits {
                    let plain = try VulkanRenderer.render(plan, sources: ["main": image], format: .rgba32f,
                                                          groupLimit: groupLimit, tiled: false)
                    let tiled = try VulkanRenderer.render(plan, sources: ["main": image], format: .rgba32f,
                                                          groupLimit: groupLimit, tiled: true)
                    XCTAssertEqual(Data(bytes: try tiled.hostBytes(), count: tiled.byteCount),
                                   Data(bytes: try plain.hostBytes(), count: plain.byteCount),
                                   "recipe \(r) on \(image.width)×\(image.height) \(image.format), groups \(String(describing: groupLimit))")
                }
            }
        }
    }
}
