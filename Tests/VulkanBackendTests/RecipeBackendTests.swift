import FilterCore
import PNGCodec
import FilterRecipe
import Foundation
import TestSupport
import VulkanBackend
import XCTest

/// Every recipe in recipes/ rendered to a file on Vulkan and on the CPU: the same pixels within the largest
/// tolerance of the filters it uses, and exactly one upload per input and one download.
final class RecipeBackendTests: VulkanTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    static func recipes() throws -> [(name: String, recipe: Recipe, inputs: [String: String])] {
        try RecipeFixtures.all().map { ($0.name, $0.recipe, RecipeFixtures.inputs(for: $0.name, $0.recipe)) }
    }

    func testEveryRecipeMatchesTheCPUWithOneTransferEachWay() throws {
        let all = try Self.recipes()
        XCTAssertGreaterThanOrEqual(all.count, 8)
        for (name, recipe, inputs) in all {
            let cpuPath = scratch.appendingPathComponent("\(name.replacingOccurrences(of: "/", with: "-"))-cpu.png").path
            let gpuPath = scratch.appendingPathComponent("\(name.replacingOccurrences(of: "/", with: "-"))-vulkan.png").path
            try Renderer(backend: .cpu).render(recipe, inputs: inputs, output: cpuPath)
            let report = try Renderer(backend: .vulkan, options: .init(timeDeviceSteps: true))
                .render(recipe, inputs: inputs, output: gpuPath)
            XCTAssertEqual(report.backend, .vulkan, name)
            XCTAssertEqual(report.transfers.uploads, inputs.count, name)
            XCTAssertEqual(report.transfers.downloads, 1, name)
            let sizes = try inputs.values.map { path -> Int in
                let decoder = try TestImages.decoder(path: path)
                return decoder.width * decoder.height * decoder.format.bytesPerPixel
            }
            XCTAssertEqual(report.transfers.bytesUploaded, sizes.reduce(0, +), "\(name): inputs go up packed, as stored")
            XCTAssertEqual(report.transfers.bytesDownloaded, report.width * report.height * report.format.bytesPerPixel, name)
            XCTAssertFalse(report.nodes.isEmpty, name)
            XCTAssertTrue(report.nodes.allSatisfy { $0.backend == .vulkan }, name)

            let cpu = try PNGDecoder.decode(path: cpuPath), gpu = try PNGDecoder.decode(path: gpuPath)
            XCTAssertEqual(gpu.format, cpu.format, name)
            let tolerance = recipe.nodes.map(\.op.spec.tolerance).max() ?? 0
            let d = Difference.between(try cpu.samples(), try gpu.samples(), width: cpu.width, channels: cpu.format.channels)
            XCTAssertLessThanOrEqual(d.worst, tolerance * (cpu.format.depth == 16 ? 257 : 1), "\(name): \(d)")
        }
    }

    /// `--explain`'s planned device memory is what the render then allocates for working buffers.
    func testPlannedDeviceMemoryIsWhatTheRenderAllocates() throws {
        for (name, recipe, inputs) in try Self.recipes() {
            let decoders = try inputs.mapValues { try TestImages.decoder(path: $0) }
            let plan = Optimizer.optimize(try recipe.plan(inputSizes: decoders.mapValues { ($0.width, $0.height) })).plan
            // The render writes the inputs' depth (16-bit when any input is).
            let format: PixelFormat = decoders.values.allSatisfy { $0.format.bytesPerSample == 1 } ? .rgba8 : .rgba16
            let planned = try VulkanRenderer.plan(plan, sourceRowBytes: decoders.mapValues { $0.width * $0.format.bytesPerPixel },
                                                  sourceFormats: decoders.mapValues(\.format), format: format)
            let report = try Renderer(backend: .vulkan).render(recipe, inputs: inputs,
                                                               output: scratch.appendingPathComponent("\(name.replacingOccurrences(of: "/", with: "-")).png").path)
            XCTAssertEqual(planned.workingBytes, report.peakIntermediateBytes, name)
            XCTAssertEqual(planned.bands, 1, name)
        }
    }

    func testKernelsAreCompiledOncePerProcess() throws {
        let (_, recipe, inputs) = try Self.recipes().first { $0.name == "vintage" }!
        let out = scratch.appendingPathComponent("out.png").path
        try Renderer(backend: .vulkan).render(recipe, inputs: inputs, output: out)
        let before = ShaderCompiler.counters
        let report = try Renderer(backend: .vulkan, options: .init()).render(recipe, inputs: inputs, output: out + "2.png")
        let after = ShaderCompiler.counters
        XCTAssertEqual(after.compiled, before.compiled, "the second render compiles nothing")
        XCTAssertEqual(after.diskHits, before.diskHits)
        XCTAssertEqual(report.transfers.uploads, 1)
    }

    func testExplainNamesTheDeviceAndDriver() throws {
        let (_, recipe, inputs) = try Self.recipes().first { $0.name == "vignette" }!
        let text = try Renderer(backend: .vulkan).explain(recipe, inputs: inputs)
        let context = try VulkanContext.shared()
        XCTAssertTrue(text.contains("Vulkan device: \(context.deviceName)"), text)
        XCTAssertTrue(text.contains(context.driverName), text)
        XCTAssertTrue(text.contains("backend vulkan"), text)
        XCTAssertTrue(text.contains("max storage buffer"), text)
    }
}
