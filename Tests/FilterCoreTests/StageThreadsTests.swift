import FilterCore
import Foundation
import TestSupport
import XCTest

/// Stage threads are kept and reused: stages run one after another make no new thread after the first, and
/// stages at once make at most as many threads as run at once, however many rounds follow.
final class StageThreadsTests: XCTestCase {
    func runStages(_ count: Int, holding seconds: Double = 0) {
        let group = DispatchGroup()
        for _ in 0..<count {
            group.enter()
            StageThreads.run {
                if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
                group.leave()
            }
        }
        group.wait()
        // Each thread back to waiting (it signals its stage done just before it returns to the pool).
        let deadline = Date().addingTimeInterval(5)
        while StageThreads.idleThreads < StageThreads.threadsMade, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
    }

    func testThreadsAreMadeOnlyWhenEveryKeptOneIsBusy() {
        // Four at once, to have four kept threads whatever ran before.
        runStages(4, holding: 0.05)
        let made = StageThreads.threadsMade
        for _ in 0..<20 { runStages(1) }
        for _ in 0..<5 { runStages(4, holding: 0.01) }
        XCTAssertEqual(StageThreads.threadsMade, made, "20 single stages and 5 rounds of 4 made no thread")
        runStages(8, holding: 0.05)
        XCTAssertLessThanOrEqual(StageThreads.threadsMade, made + 4, "eight at once add at most four to four kept")
    }

    /// A bounded pool (filterserve's origin threads) never holds more threads than its limit: jobs past it wait
    /// their turn, in order, and every one runs.
    func testABoundedPoolMakesNoMoreThanItsLimit() {
        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var running = 0, most = 0, order = [Int]()
        }
        let pool = KeptThreads(name: "bounded test", limit: 2)
        let tally = Tally()
        let release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for job in 0..<6 {
            done.enter()
            pool.run {
                tally.lock.withLock { tally.running += 1; tally.most = max(tally.most, tally.running); tally.order.append(job) }
                release.wait()
                tally.lock.withLock { tally.running -= 1 }
                done.leave()
            }
        }
        // A loaded machine may be slow to start the two; once they run, a third would show within the pause.
        let started = Date().addingTimeInterval(10)
        while tally.lock.withLock({ tally.running }) < 2, Date() < started { Thread.sleep(forTimeInterval: 0.001) }
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(tally.lock.withLock { tally.running }, 2, "two jobs run, four wait")
        // One job ends at a time, and the next waits to be seen starting: two threads freed together would
        // race to record their jobs, so the order they came in shows only when one is freed at a time.
        for started in 3...6 {
            release.signal()
            let deadline = Date().addingTimeInterval(10)
            while tally.lock.withLock({ tally.order.count }) < started, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
        release.signal()
        release.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "every job ran")
        XCTAssertEqual(tally.most, 2)
        XCTAssertEqual(pool.threadsMade, 2)
        XCTAssertEqual(Array(tally.order.prefix(2)).sorted(), [0, 1])
        XCTAssertEqual(Array(tally.order.dropFirst(2)), [2, 3, 4, 5], "the waiting jobs in the order they came")
        XCTAssertEqual(pool.jobsStarted, 6)
    }

    /// No render makes a thread of its own, in Swift or in our C: threads are made only here and by the benchmarking
    /// tool (the PNG encoder's deflates run on Dispatch's pool, beside `WorkerPool`'s loops; the JPEG plane
    /// transcodes hand their workers to these threads).
    func testOnlyTheKeptPoolsMakeThreads() throws {
        let sources = Fixtures.repository.appendingPathComponent("Sources")
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path)
            .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".c") }
        let allowed: Set = ["FilterCore/KeptThreads.swift"]
        for file in files where !allowed.contains(file) && !file.hasPrefix("filterbench/") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for pattern in [#"[^A-Za-z]Thread \{"#, #"Thread\.detachNewThread"#, #"Thread\(block"#, "pthread_create"] {
                XCTAssertNil(text.range(of: pattern, options: .regularExpression),
                             "\(file) makes a thread (\(pattern)); run the stage on StageThreads (or another KeptThreads)")
            }
        }
    }
}
