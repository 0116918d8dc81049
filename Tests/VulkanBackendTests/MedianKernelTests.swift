import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// The Vulkan median runs the CPU's networks: a selection, so the same floats exactly, at every radius.
final class MedianKernelTests: VulkanTestCase {
    func testMediansGiveTheCPUsFloats() throws {
        let image = try TestImages.crop("photos/emerald_crop_320x240_rgba8.png", x: 60, y: 40, width: 70, height: 30)
        for radius in 1...3 {
            let recipe = Recipe.chain([(.median, ["radius": .number(Double(radius))])])
            let cpu = try Renderer(backend: .cpu).render(recipe, images: ["main": image], format: .rgba32f)
            let gpu = try Renderer(backend: .vulkan).render(recipe, images: ["main": image], format: .rgba32f)
            XCTAssertEqual(Data(bytes: try gpu.hostBytes(), count: gpu.byteCount),
                           Data(bytes: try cpu.hostBytes(), count: cpu.byteCount), "radius \(radius)")
        }
    }
}
