@testable import FilterCore
import Synchronization
import XCTest

final class WorkerPoolTests: XCTestCase {
    /// Runs `forEachChunk` over `range` and returns how often each index was handed out.
    private func coverage(of range: Range<Int>, minChunk: Int) -> [Int] {
        let counts = Mutex([Int](repeating: 0, count: range.upperBound))
        WorkerPool.forEachChunk(range, minChunk: minChunk) { chunk in
            counts.withLock { for i in chunk { $0[i] += 1 } }
        }
        return counts.withLock { $0 }
    }

    /// Every index is handed out once, in chunks of at least `minChunk` where the range allows, whether or not a
    /// decoder thread holds a core (the loop then runs on fewer threads).
    func testChunksCoverTheRangeOnceWithAndWithoutHelpers() {
        for (range, minChunk) in [(0..<1000, 1), (3..<1000, 7), (10..<11, 1), (0..<5, 64)] {
            let expected = (0..<range.upperBound).map { range.contains($0) ? 1 : 0 }
            XCTAssertEqual(coverage(of: range, minChunk: minChunk), expected, "\(range) by \(minChunk)")
            WorkerPool.asHelper {
                XCTAssertEqual(coverage(of: range, minChunk: minChunk), expected, "\(range) by \(minChunk), helper running")
            }
        }
    }

    /// While helpers run, a loop uses the workers less the helpers (at least its caller): with as many helpers as
    /// workers it runs on the calling thread alone.
    func testALoopLeavesRunningHelpersTheirCores() {
        func threadsUsed() -> Int {
            let running = Atomic<Int>(0), most = Atomic<Int>(0)
            WorkerPool.forEachChunk(0..<64, minChunk: 1) { _ in
                let now = running.add(1, ordering: .relaxed).newValue
                var seen = most.load(ordering: .relaxed)
                while now > seen {
                    let (exchanged, original) = most.compareExchange(expected: seen, desired: now, ordering: .relaxed)
                    if exchanged { break }
                    seen = original
                }
                usleep(2000)  // long enough for every thread the loop uses to be inside at once
                running.subtract(1, ordering: .relaxed)
            }
            return most.load(ordering: .relaxed)
        }
        func nested(_ depth: Int, _ body: () -> Int) -> Int {
            depth == 0 ? body() : WorkerPool.asHelper { nested(depth - 1, body) }
        }
        XCTAssertEqual(nested(WorkerPool.width, threadsUsed), 1)
        XCTAssertLessThanOrEqual(nested(1, threadsUsed), max(1, WorkerPool.width - 1))
    }

    /// The parallel copy moves every byte, whatever the size against its 4 MiB pieces, and nothing past the end.
    func testCopyMovesEveryByteAndNoMore() {
        for count in [0, 1, 4 << 20, (4 << 20) + 1, 3 * (4 << 20) - 7] {
            var source = [UInt8](repeating: 0, count: count)
            var state: UInt32 = 12345
            for i in 0..<count { state = state &* 1_664_525 &+ 1_013_904_223; source[i] = UInt8(state >> 24) }
            var destination = [UInt8](repeating: 0xA5, count: count + 16)
            source.withUnsafeBytes { from in
                destination.withUnsafeMutableBytes { to in
                    WorkerPool.copy(to: to.baseAddress!, from: from.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, byteCount: count)
                }
            }
            XCTAssertTrue(destination[..<count].elementsEqual(source), "\(count) bytes")
            XCTAssertEqual(Array(destination[count...]), [UInt8](repeating: 0xA5, count: 16), "\(count) bytes: past the end")
        }
    }
}
