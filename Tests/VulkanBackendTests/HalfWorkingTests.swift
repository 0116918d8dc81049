import FilterCore
import FilterRecipe
import TestSupport
import VulkanBackend
import XCTest

/// Half-float working buffers (8-bit inputs and output): the same pixels as float32 buffers within 1 code, in half
/// the device memory. (Every filter against the CPU on 8-bit layouts, in CrossBackendTests, runs with them too.)
final class HalfWorkingTests: VulkanTestCase {
    func testEightBitChainsUseHalfTheDeviceMemoryForTheSamePixels() throws {
        let chains: [[(FilterID, [String: ParamValue])]] = [
            [(.gaussianBlur, ["sigma": 2]), (.vignette, ["intensity": 0.6])],
            [(.colorControls, ["saturation": 1.4, "contrast": 1.2]), (.gamma, ["power": 0.7]), (.boxBlur, ["radius": 3])],
            [(.resize, ["width": 23, "kernel": "lanczos3"]), (.curves, ["points": .points([[0, 0], [0.4, 0.6], [1, 1]])])],
            [(.median, ["radius": 1]), (.levels, ["inBlack": 0.1, "inWhite": 0.9]), (.sobel, [:])],
        ]
        let images = try TestImages.small().filter { $0.image.format.bytesPerSample == 1 }
        XCTAssertGreaterThanOrEqual(images.count, 3)
        for steps in chains {
            for space in [WorkingSpace.linear, .srgb] {
                let recipe = Recipe.chain(steps, workingSpace: space)
                for (name, image) in images {
                    let plan = Optimizer.optimize(try recipe.plan(inputSizes: ["main": (image.width, image.height)])).plan
                    let halfStats = RenderStats(), floatStats = RenderStats()
                    let half = try VulkanRenderer.render(plan, sources: ["main": image], format: image.format,
                                                         stats: halfStats, halfWorking: true)
                    let full = try VulkanRenderer.render(plan, sources: ["main": image], format: image.format,
                                                         stats: floatStats, halfWorking: false)
                    let d = Difference.between(try full.samples(), try half.samples(), width: full.width,
                                               channels: full.format.channels)
                    XCTAssertLessThanOrEqual(d.worst, 1, "\(steps) \(space) on \(name): \(d)")
                    XCTAssertEqual(Double(halfStats.peakIntermediateBytes), Double(floatStats.peakIntermediateBytes) / 2,
                                   accuracy: 1, "\(steps) on \(name): device bytes for working buffers halve")
                }
            }
        }
    }
}
