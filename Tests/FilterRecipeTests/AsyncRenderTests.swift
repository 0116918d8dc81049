import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// async renders: progress in output rows, and Task cancellation that stops the render within a strip and writes
/// nothing.
final class AsyncRenderTests: XCTestCase {
    final class Rows: @unchecked Sendable {
        let lock = NSLock()
        var seen: [Int] = []
        var total = 0
        func add(_ done: Int, _ of: Int) { lock.withLock { seen.append(done); total = of } }
    }

    let photo = Fixtures.path("photos/chelsea_451x300_rgb8.png")

    func testProgressReachesEveryRow() async throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rows = Rows()
        let recipe = try Image(input: "main").resize(scale: 2).gaussianBlur(sigma: 1).recipe
        let report = try await Renderer(backend: .cpu).render(recipe, inputs: ["main": photo],
                                                              output: dir.appendingPathComponent("o.png").path) { rows.add($0, $1) }
        XCTAssertEqual(report.height, 600)
        XCTAssertEqual(rows.total, 600)
        XCTAssertEqual(rows.seen.last, 600)
        XCTAssertEqual(rows.seen, rows.seen.sorted())
        XCTAssertGreaterThan(rows.seen.count, 1)
    }

    func testCancellingTheTaskStopsTheRenderAndWritesNothing() async throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("o.png").path
        let rows = Rows()
        let recipe = try Image(input: "main").resize(scale: 8).gaussianBlur(sigma: 6).recipe
        let task = Task {
            try await Renderer(backend: .cpu).render(recipe, inputs: ["main": photo], output: output) { rows.add($0, $1) }
        }
        while rows.lock.withLock({ rows.seen.isEmpty }) { try await Task.sleep(nanoseconds: 1_000_000) }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("the render finished although cancelled")
        } catch RenderError.cancelled {
        }
        XCTAssertLessThan(rows.lock.withLock { rows.seen.last ?? 0 }, 2400, "stopped before the last row")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], "no output, no temporary file")
    }
}
