@testable import FilterCore
import Foundation
import Synchronization
import XCTest

/// `ProcessMemory`: a process that renders one image after another reuses the pages a render freed, and
/// `RenderLoad` counts a server's renders that are taken on but not yet started.
final class ProcessMemoryTests: XCTestCase {
    /// Minor page faults taken by the calling thread so far.
    private func faults() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD
        return usage.ru_minflt
    }

    /// A render's blocks (four of 1 MiB: a 12 MP JPEG's scan, its block positions, rows), freed and asked for
    /// again, come back without the kernel mapping and zeroing their pages again. By default glibc maps such blocks
    /// afresh at first, then serves them from the thread's heap but trims the heap's free top once it passes twice
    /// the largest block it saw mapped — so each later round faults 1 024 pages again.
    func testFreedBlocksAreReusedWithoutPageFaults() throws {
        #if canImport(Glibc)
        XCTAssertTrue(ProcessMemory.keepForReuse(), "glibc takes the settings")
        #else
        try XCTSkipIf(true, "not glibc")
        #endif
        let size = 1 << 20
        let refaults = Mutex([Int]())
        let done = DispatchSemaphore(value: 0)
        // On a thread of its own, so on its own heap, as a render thread.
        Thread {
            for round in 0..<4 {
                let before = self.faults()
                let blocks = (0..<4).compactMap { _ in malloc(size) }
                for block in blocks { memset(block, Int32(round + 1), size) }
                let taken = self.faults() - before
                blocks.forEach { free($0) }
                refaults.withLock { $0.append(taken) }
            }
            done.signal()
        }.start()
        done.wait()
        let taken = refaults.withLock { $0 }
        XCTAssertEqual(taken.count, 4, "the blocks were allocated")
        XCTAssertLessThan(taken.last ?? .max, 64, "the last round's 4 MiB reused the pages of the ones before: \(taken) faults")
    }

    func testExpectedRendersCountAsLoadUntilTheyStart() {
        let before = RenderLoad.waiting
        var expected: [RenderLoad.Expected] = (0..<3).map { _ in RenderLoad.Expected() }
        XCTAssertEqual(RenderLoad.waiting, before + 3)
        expected[0].started()
        expected[0].started()  // once only
        XCTAssertEqual(RenderLoad.waiting, before + 2)
        expected.removeAll()  // one started, two turned away
        XCTAssertEqual(RenderLoad.waiting, before)
    }

    func testExpectedRendersMakeTheLoadSaturated() throws {
        try XCTSkipIf(WorkerPool.width < 2, "one core: every render is saturated")
        guard RenderLoad.policy == .byLoad else { throw XCTSkip("FILTERRUN_SERIAL_STAGES is set") }
        XCTAssertEqual(RenderLoad.active + RenderLoad.waiting, 0, "no other render in this process")
        RenderLoad.run {
            XCTAssertFalse(RenderLoad.saturated, "one render: the other cores are free")
            let next = (1..<WorkerPool.width).map { _ in RenderLoad.Expected() }
            XCTAssertTrue(RenderLoad.saturated, "renders taken on for every other core")
            next.forEach { $0.started() }
            XCTAssertFalse(RenderLoad.saturated, "they started (and run elsewhere, counted there)")
        }
    }
}
