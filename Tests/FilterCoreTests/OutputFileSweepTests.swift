import FilterCore
import Foundation
import TestSupport
import XCTest

/// Batches starting on a directory sweep temporary files no process holds; files being created by another batch at
/// that moment must survive (the shard processes of one batch start together on one output directory).
final class OutputFileSweepTests: XCTestCase {
    func testSweepsNeverTakeAFileBeingCreated() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stop = DispatchSemaphore(value: 0)
        let sweeper = Thread {
            // Everything counts as old: only the lock protects a file.
            while stop.wait(timeout: .now()) != .success {
                OutputFile.sweepStaleTemporaries(under: dir.path, recursive: false, before: Date().addingTimeInterval(60))
            }
        }
        sweeper.start()
        var failures = [String]()
        for index in 0..<1500 {
            do {
                let output = try OutputFile(path: dir.appendingPathComponent("out\(index).bin").path, replace: false)
                try output.publish()
            } catch {
                failures.append("\(index): \(error)")
            }
        }
        stop.signal()
        XCTAssertEqual(failures, [], "outputs lost to a concurrent sweep")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix(".") }.count,
                       1500 - failures.count)
    }
}
