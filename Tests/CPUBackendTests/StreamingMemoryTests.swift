import CPUBackend
import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// A chain of local filters keeps strips, never the whole image as float.
final class StreamingMemoryTests: XCTestCase {
    func peakRowBytes(height: Int) throws -> Int {
        let width = 64
        let image = PixelBuffer(width: width, height: height, format: .rgb8)
        let bytes = try image.mutableHostBytes()
        var generator = SplitMix64(seed: 3)
        for i in 0..<image.byteCount { bytes.storeBytes(of: UInt8(truncatingIfNeeded: generator.next()), toByteOffset: i, as: UInt8.self) }
        let recipe = Recipe.chain([(.gaussianBlur, ["sigma": 3]), (.exposure, ["ev": 0.5]), (.unsharpMask, ["sigma": 2]),
                                   (.median, ["radius": 1])])
        let plan = try recipe.plan(inputSizes: ["main": (width, height)])
        let stats = RenderStats()
        let out = try CPURenderer.render(plan, sources: ["main": BufferRowSource(image)], format: .rgb8, stats: stats)
        XCTAssertEqual(out.height, height)
        return stats.peakIntermediateBytes
    }

    /// Row caches are sized by strips (about 1 MiB per stage), so their peak does not grow with the image height.
    func testLocalChainMemoryDoesNotGrowWithHeight() throws {
        let short = try peakRowBytes(height: 3000), tall = try peakRowBytes(height: 12000)
        XCTAssertGreaterThan(short, 0)
        XCTAssertEqual(tall, short, "row caches grew with the image: \(short) B at 3000 rows, \(tall) B at 12000 rows")
        XCTAssertLessThan(tall, 64 * 12000 * 16 / 4, "a float copy of the image is \(64 * 12000 * 16) B")
    }

    /// Operations that need their whole input (vertical flip) hold it, and only it: as working values when a
    /// neighbourhood filter comes before, as samples when it reads the source directly or after per-pixel steps
    /// (rounded to the output's samples row by row).
    func testWholeImageOperationsHoldTheirInput() throws {
        let image = PixelBuffer(width: 32, height: 2000, format: .grey8)
        for (steps, bytes) in [([(FilterID.gaussianBlur, ["sigma": 1] as [String: ParamValue]), (.flip, ["direction": "vertical"])], 16),
                               ([(.vibrance, ["amount": 0.5]), (.flip, ["direction": "vertical"])], 1),
                               ([(.flip, ["direction": "vertical"])], 1)] {
            let plan = try Recipe.chain(steps).plan(inputSizes: ["main": (32, 2000)])
            let stats = RenderStats()
            _ = try CPURenderer.render(plan, sources: ["main": BufferRowSource(image)], format: .grey8, stats: stats)
            XCTAssertGreaterThanOrEqual(stats.peakIntermediateBytes, 32 * 2000 * bytes)
            XCTAssertLessThan(stats.peakIntermediateBytes, 32 * 2000 * bytes * 2 + (1 << 20))
        }
    }
}
