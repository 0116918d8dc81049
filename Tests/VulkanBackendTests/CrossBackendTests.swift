import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// Every catalogue filter on Vulkan against the CPU backend, at every swept parameter set (defaults, each
/// parameter's minimum and maximum, every option), on real crops of every stored layout (8- and 16-bit; grey, RGB,
/// RGBA) and on synthetic RGBA16 noise with transparent pixels; within the filter's declared tolerance.
final class CrossBackendTests: VulkanTestCase {
    func compare(_ id: FilterID, space: WorkingSpace, images: [(name: String, image: PixelBuffer)]) throws {
        let overlay = try TestImages.overlay(), mask = try TestImages.mask()
        let spec = id.spec
        for (label, recipe) in ParameterSweep.recipes(for: id, space: space) {
            for (name, image) in images {
                let inputs: [String: PixelBuffer] = ["main": image, "other": overlay, "mask": mask]
                let cpu: PixelBuffer
                do { cpu = try Renderer(backend: .cpu).render(recipe, images: inputs) } catch RenderError.recipe { continue }
                let gpu = try Renderer(backend: .vulkan).render(recipe, images: inputs)
                XCTAssertEqual(gpu.format, cpu.format)
                XCTAssertEqual(gpu.width, cpu.width)
                XCTAssertEqual(gpu.height, cpu.height)
                let want = try cpu.samples(), found = try gpu.samples()
                let tolerance = spec.tolerance * (cpu.format.depth == 16 ? 257 : 1)
                let context = "\(id) \(label) on \(name), \(space)"
                if let failure = Difference.failure(want, found, tolerance: tolerance,
                                                    stepFunction: Difference.stepFunctions.contains(id),
                                                    width: cpu.width, channels: cpu.format.channels) {
                    XCTFail("\(context): \(failure)")
                }
            }
        }
    }

    func testEveryFilterMatchesTheCPUInLinearSpace() throws {
        let images = try TestImages.small() + [("synthetic rgba16", TestImages.synthetic())]
        for id in FilterID.allCases { try compare(id, space: .linear, images: images) }
    }

    func testEveryFilterMatchesTheCPUInSRGBSpace() throws {
        // Not again under GPU-assisted validation (scripts/test.sh's second pass, 190 s here): its kernels address
        // their buffers as the linear-light sweep's do and differ only in which conversion table they read.
        try XCTSkipIf(ProcessInfo.processInfo.environment["FILTERRUN_VULKAN_VALIDATION"] == "gpu-assisted",
                      "the linear-light sweep instruments the same addressing")
        let images = try TestImages.small()
        for id in FilterID.allCases { try compare(id, space: .srgb, images: images) }
    }

    /// Geometry moves pixels without arithmetic: the backends must agree exactly, 16-bit included.
    func testGeometryIsBitExact() throws {
        let images = try TestImages.small() + [("synthetic rgba16", TestImages.synthetic())]
        let steps: [(FilterID, [String: ParamValue])] = [
            (.rotate, ["degrees": 90]), (.rotate, ["degrees": -90]), (.rotate, ["degrees": 180]), (.flip, ["direction": "vertical"]),
            (.transpose, [:]), (.crop, ["x": 3, "y": 5, "width": 17, "height": 9]),
        ]
        for step in steps {
            for (name, image) in images {
                let recipe = Recipe.chain([step])
                let cpu = try Renderer(backend: .cpu).render(recipe, images: ["main": image])
                let gpu = try Renderer(backend: .vulkan).render(recipe, images: ["main": image])
                XCTAssertEqual(try gpu.samples(), try cpu.samples(), "\(step.0) \(step.1) on \(name)")
            }
        }
    }
}
