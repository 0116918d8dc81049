@testable import VulkanBackend
import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// Bands of fewer than 16 rows dispatch flatter work groups of the same 256 invocations (specialisation constants),
/// so no group idles most of its rows; the pixels are those of the whole image.
final class WorkGroupShapeTests: VulkanTestCase {
    func testFewRowBandsUseFlatGroupsThatCoverTheBand() {
        let expected: [Int: (Int, Int)] = [1: (256, 1), 2: (128, 2), 3: (64, 4), 5: (32, 8), 8: (32, 8), 9: (16, 16), 400: (16, 16)]
        for (rows, shape) in expected {
            let launch = VulkanRun.launch(width: 1000, rows: rows)
            XCTAssertEqual([launch.shape.x, launch.shape.y], [shape.0, shape.1], "\(rows) rows")
            XCTAssertGreaterThanOrEqual(launch.groups.x * launch.shape.x, 1000)
            XCTAssertGreaterThanOrEqual(launch.groups.y * launch.shape.y, rows)
            XCTAssertLessThan((launch.groups.y - 1) * launch.shape.y, rows, "no group lies wholly below the band")
        }
    }

    func testRowBandsGiveTheWholeImagesPixels() throws {
        let image = try TestImages.crop("photos/chelsea_451x300_rgb8.png", x: 0, y: 0, width: 120, height: 40)
        let recipe = Recipe.chain([(.gaussianBlur, ["sigma": 1]), (.vignette, [:]), (.median, ["radius": 1])])
        let plan = Optimizer.optimize(try recipe.plan(inputSizes: ["main": (120, 40)])).plan
        let whole = try VulkanRenderer.render(plan, sources: ["main": image], format: .rgba32f)
        // Buffers of 120 × 16 B rows: bands of 1, 3 and 7 rows (the blur and median read 8 more).
        for rows in [1, 3, 7] {
            let banded = try VulkanRenderer.render(plan, sources: ["main": image], format: .rgba32f,
                                                   bandLimit: 120 * 16 * (rows + 8))
            XCTAssertEqual(Data(bytes: try banded.hostBytes(), count: banded.byteCount),
                           Data(bytes: try whole.hostBytes(), count: whole.byteCount), "bands for \(rows) rows")
        }
    }
}
