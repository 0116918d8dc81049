import FilterCore
import FilterRecipe
import TestSupport
import VulkanBackend
import XCTest

/// The shared-memory kernels (GPUs) against the plain ones (software devices): the same sums in the same order, so
/// the same floats. Separable passes with taps fitting one round and needing several (σ 130: 781 taps, two horizontal
/// rounds of 512 and 25 vertical ones of 32); 2-D convolutions of every kernel size the catalogue allows' extremes
/// (3×3 and 9×9), straight colour (alpha kept, translucent pixels included) and premultiplied, with a bias; images
/// narrower and wider than a work group, bands whose height is not a multiple of 16 rows, and groups stepping over
/// rows when the device allows few groups in y.
final class TiledKernelTests: VulkanTestCase {
    func testTiledKernelsGiveThePlainKernelsFloats() throws {
        let wide = try TestImages.crop("photos/chelsea_451x300_rgb8.png", x: 0, y: 0, width: 300, height: 24)
        let images = try TestImages.small().prefix(3).map { $0.image } + [wide]  // rgb8, grey8, rgba8
        let recipes = [Recipe.chain([(.gaussianBlur, ["sigma": 0.6])]), Recipe.chain([(.gaussianBlur, ["sigma": 3])]),
                       Recipe.chain([(.gaussianBlur, ["sigma": 130])]),
                       Recipe.chain([(.unsharpMask, ["sigma": 2, "amount": 1])]),
                       Recipe.chain([(.convolve, ["kernel": .numbers([1, 2, 1, 0, 0, 0, -1, -2, -1]), "normalize": false,
                                                  "bias": 0.25])]),
                       Recipe.chain([(.convolve, ["kernel": .numbers((0..<81).map { Double(($0 * 7) % 11) - 4 }),
                                                  "preserveAlpha": false, "bias": -0.1])])]
        for (r, recipe) in recipes.enumerated() {
            for image in images {
                let plan = Optimizer.optimize(try recipe.plan(inputSizes: ["main": (image.width, image.height)])).plan
                // Two groups in y (32 rows a dispatch) where the blur's reach lets bands be that short; bands of
                // about 21 rows (not a multiple of a group's 16), whose last group stages rows past the band.
                let bands = image.width * 16 * 21
                let limits: [((x: Int, y: Int)?, Int?)] = r == 2 ? [(nil, nil)] : [(nil, nil), ((x: 65535, y: 2), nil), (nil, bands)]
                for (groupLimit, bandLimit) in limits {
                    let plain = try VulkanRenderer.render(plan, sources: ["main": image], format: .rgba32f,
                                                          bandLimit: bandLimit, groupLimit: groupLimit, tiled: false)
                    let tiled = try VulkanRenderer.render(plan, sources: ["main": image], format: .rgba32f,
                                                          bandLimit: bandLimit, groupLimit: groupLimit, tiled: true)
                    XCTAssertEqual(Data(bytes: try tiled.hostBytes(), count: tiled.byteCount),
                                   Data(bytes: try plain.hostBytes(), count: plain.byteCount),
                                   "recipe \(r) on \(image.width)×\(image.height) \(image.format), groups \(String(describing: groupLimit)), band limit \(String(describing: bandLimit))")
                }
            }
        }
    }
}
