import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// Live preview: inputs decoded once at preview size, every node cached by the sub-graph that made it, and a
/// parameter change re-running only what it reaches, with the same pixels as a full render.
final class PreviewSessionTests: XCTestCase {
    func look(_ intensity: Double) throws -> Image {
        try Image(input: "main").gaussianBlur(sigma: 1.5).unsharpMask(sigma: 1, amount: 0.5)
            .colorControls(saturation: 1.1).vignette(intensity: intensity)
    }

    func testAChangeReRunsOnlyWhatItReaches() throws {
        // The preview is made once, 80 px wide, upright and in the working space.
        let session = try PreviewSession(inputs: ["main": Fixtures.path("jpeg/restart_444.jpg")], previewWidth: 80)
        let preview = try XCTUnwrap(session.preview("main"))
        XCTAssertEqual([preview.width, preview.height], [80, 53])
        let first = try session.render(look(0.3))
        XCTAssertEqual(session.statistics.nodesRun, 4)
        let second = try session.render(look(0.6))
        XCTAssertEqual(session.statistics.nodesRun, 5, "only the vignette ran again")
        XCTAssertEqual(session.statistics.nodesFromCache, 3)
        XCTAssertFalse(try first.packedData() == second.packedData())
        // The cached path gives a full render's pixels (within the fused chain's float rounding).
        let full = try Renderer(backend: .cpu).render(look(0.6).recipe, images: ["main": preview], format: .rgba8)
        let d = Difference.between(try full.samples(), try second.samples(), width: 80, channels: 4)
        XCTAssertLessThanOrEqual(d.worst, 1, "\(d)")
        // An earlier look comes back from the cache without running anything.
        _ = try session.render(look(0.3))
        XCTAssertEqual(session.statistics.nodesRun, 5)
    }

    func testTheCacheStaysWithinItsBudget() throws {
        let budget = 80 * 53 * 16 * 2  // two results
        let session = try PreviewSession(inputs: ["main": Fixtures.path("jpeg/restart_444.jpg")], previewWidth: 80,
                                         cacheBudget: budget)
        for step in 0..<5 { _ = try session.render(look(Double(step) / 10)) }
        XCTAssertLessThanOrEqual(session.statistics.cachedBytes, budget)
        XCTAssertLessThanOrEqual(session.statistics.peakCachedBytes, budget)
        XCTAssertThrowsError(try session.render(Image(input: "other").invert())) { XCTAssertTrue($0 is RenderError) }
    }
}
