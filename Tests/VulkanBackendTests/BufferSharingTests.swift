import FilterCore
import Foundation
import FilterRecipe
import TestSupport
import VulkanBackend
import XCTest

/// Renders that share buffers (`BufferPlan`: a stored source read from its samples by the kernels that read each
/// pixel once, and in sRGB working values by every kernel, a result written over an input it was the last to read, unsharp masking's combination stored by its
/// blur's last pass) give the pixels of renders in which every node has a working buffer of its own: bit for bit
/// with float32 working buffers, in bands too, and within one code with halves (which no longer round the source
/// before its first reader). And they take less device memory: one buffer for a per-pixel recipe, two for a blur.
final class BufferSharingTests: VulkanTestCase {
    static func greyAlpha() throws -> PixelBuffer {
        let rgba = try TestImages.overlay()
        let image = PixelBuffer(width: rgba.width, height: rgba.height, format: .greyA8)
        let from = try rgba.hostBytes(), to = try image.mutableHostBytes()
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = from + y * rgba.rowStride + x * 4
                (to + y * image.rowStride + x * 2).storeBytes(of: pixel.load(fromByteOffset: 1, as: UInt8.self), as: UInt8.self)
                (to + y * image.rowStride + x * 2 + 1).storeBytes(of: pixel.load(fromByteOffset: 3, as: UInt8.self), as: UInt8.self)
            }
        }
        return image
    }

    /// `half`: nil lets the device choose (lavapipe: halves wherever the plan allows them).
    func render(_ recipe: Recipe, _ images: [String: PixelBuffer], sharing: Bool, half: Bool? = false,
                parts: Int? = nil, stats: RenderStats = RenderStats()) throws -> PixelBuffer {
        let used = images.filter { recipe.usedInputs.contains($0.key) }
        let plan = Optimizer.optimize(try recipe.plan(inputSizes: used.mapValues { ($0.width, $0.height) })).plan
        let largest = plan.nodes.map { $0.width * $0.height * 16 }.max()!
        return try VulkanRenderer.render(plan, sources: used, format: used["main"]?.format ?? .rgba8, stats: stats,
                                         bandLimit: parts.map { largest / $0 }, halfWorking: half, sharing: sharing)
    }

    func assertSame(_ found: PixelBuffer, _ expected: PixelBuffer, _ context: String, file: StaticString = #filePath,
                    line: UInt = #line) {
        guard let want = try? expected.samples(), let got = try? found.samples(), want.count == got.count else {
            return XCTFail("\(context): no samples or sizes differ", file: file, line: line)
        }
        let d = Difference.between(want, got, width: expected.width, channels: expected.format.channels)
        XCTAssertEqual(d.worst, 0, "\(context): \(d)", file: file, line: line)
    }

    /// Not under GPU-assisted validation (scripts/test.sh's second pass, where each kernel compiled is instrumented
    /// and this class took 128 s at one parameter set a filter): every other Vulkan test already renders with shared
    /// buffers, so the kernels that read samples or combine as they store are instrumented there; this class adds
    /// the comparison with unshared renders, which the first pass made.
    override func setUpWithError() throws {
        try super.setUpWithError()
        try XCTSkipIf(ProcessInfo.processInfo.environment["FILTERRUN_VULKAN_VALIDATION"] == "gpu-assisted",
                      "compared in the first pass; its kernels are instrumented by the other Vulkan tests")
    }

    func testEveryFilterGivesThePixelsOfUnsharedBuffers() throws {
        try compareEveryFilter(space: .linear)
    }

    /// In sRGB working values every kernel reads a stored source from its samples, neighbourhoods and resamples too
    /// (`BufferPlan.neighbourhoodsReadSamples`); each filter's defaults, whole and in bands.
    func testEveryFilterGivesThePixelsOfUnsharedBuffersInSRGB() throws {
        try compareEveryFilter(space: .srgb, defaultsOnly: true)
    }

    func compareEveryFilter(space: WorkingSpace, defaultsOnly: Bool = false) throws {
        let small = try TestImages.small()
        // 16-bit RGB, and 8-bit grey with alpha; the second and third inputs are 8-bit RGBA and grey.
        var mains = [small[3], ("grey+alpha 8", try Self.greyAlpha())]
        if space == .srgb { mains.append(small[0]) }  // and 8-bit RGB, a photo's samples
        let others: [String: PixelBuffer] = ["other": try TestImages.overlay(), "mask": try TestImages.mask()]
        for id in FilterID.allCases {
            for (label, recipe) in ParameterSweep.recipes(for: id, space: space) where !defaultsOnly || label == "defaults" {
                for (name, image) in mains {
                    let images = others.merging(["main": image]) { $1 }
                    guard let unshared = try? render(recipe, images, sharing: false) else { continue }
                    let shared = try render(recipe, images, sharing: true)
                    assertSame(shared, unshared, "\(id) \(label) on \(name), \(space)")
                    guard label == "defaults", !BandingTests.readWhole.contains(id) else { continue }
                    do {
                        let banded = try render(recipe, images, sharing: true, parts: 3)
                        assertSame(banded, unshared, "\(id) \(label) on \(name), \(space), in bands")
                    } catch let error as VulkanError where error.kind == .tooLarge {
                        continue  // a limit this small leaves some node no room (BandingTests covers refusals)
                    }
                }
            }
        }
    }

    /// Halves round what a kernel stores; a source read from its samples is no longer rounded before its first
    /// reader, so where the device takes halves (lavapipe: wherever the plan allows them) results may move by one
    /// code (towards the CPU's: fewer samples differ from it on the recipes).
    func testHalvesStayWithinACodeOfUnsharedBuffers() throws {
        let image = try TestImages.small()[0].image
        for (name, recipe) in try RecipeFixtures.all() where recipe.usedInputs == ["main"] {
            let images = ["main": image]
            let unshared = try render(recipe, images, sharing: false, half: nil)
            let shared = try render(recipe, images, sharing: true, half: nil)
            let d = Difference.between(try unshared.samples(), try shared.samples(), width: image.width,
                                       channels: shared.format.channels)
            XCTAssertLessThanOrEqual(d.worst, 1, "\(name): \(d)")
        }
    }

    /// Working buffers a render takes at its peak, in buffers of the image's size.
    func testSharedBuffersHoldLess() throws {
        let image = try TestImages.small()[0].image
        let images = ["main": image]
        let float32 = image.width * image.height * 16, half = float32 / 2
        let expected: [String: (shared: Int, unshared: Int)] = [
            // source unpacked, then the per-pixel chain's result.
            "vignette": (half, 2 * half),
            // unsharp masking: the chain's result, the blur's temporary, the blur, the combination (over the blur).
            "black-and-white": (2 * float32, 3 * float32),
            // the blur's source, its temporary and its result (the blend over it, reading the source's samples).
            "portrait-glow": (2 * half, 3 * half),
        ]
        for (name, recipe) in try RecipeFixtures.all() where recipe.usedInputs == ["main"] {
            let shared = RenderStats(), unshared = RenderStats()
            _ = try render(recipe, images, sharing: true, half: nil, stats: shared)
            _ = try render(recipe, images, sharing: false, half: nil, stats: unshared)
            XCTAssertLessThanOrEqual(shared.peakIntermediateBytes, unshared.peakIntermediateBytes, name)
            if let (want, wantUnshared) = expected[name] {
                XCTAssertEqual(shared.peakIntermediateBytes, want, name)
                XCTAssertEqual(unshared.peakIntermediateBytes, wantUnshared, name)
            }
            if name == "web-thumbnail-srgb" {
                // In sRGB the resample reads the source's samples: no working copy of the source at all.
                XCTAssertLessThanOrEqual(shared.peakIntermediateBytes, unshared.peakIntermediateBytes - float32, name)
            }
        }
    }
}
