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

    /// No render makes a thread of its own, in Swift or in our C: threads are made only here and by the benchmarking
    /// tool (the PNG encoder's deflates run on Dispatch's pool, beside `WorkerPool`'s loops; the JPEG plane
    /// transcodes hand their workers to these threads).
    func testOnlyTheKeptPoolsMakeThreads() throws {
        let sources = Fixtures.repository.appendingPathComponent("Sources")
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path)
            .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".c") }
        let allowed: Set = ["FilterCore/StageThreads.swift"]
        for file in files where !allowed.contains(file) && !file.hasPrefix("filterbench/") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for pattern in [#"[^A-Za-z]Thread \{"#, #"Thread\.detachNewThread"#, #"Thread\(block"#, "pthread_create"] {
                XCTAssertNil(text.range(of: pattern, options: .regularExpression),
                             "\(file) makes a thread (\(pattern)); run the stage on StageThreads")
            }
        }
    }
}
