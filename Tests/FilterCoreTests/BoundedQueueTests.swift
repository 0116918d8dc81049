@testable import FilterCore
import Foundation
import XCTest

/// The hand-over the reading-ahead and writing-behind threads share: order kept, the bound held, closing and
/// failing seen by both sides.
final class BoundedQueueTests: XCTestCase {
    struct Stop: Error {}

    func testItemsArriveInOrderAndThePutterWaitsAtTheBound() throws {
        let queue = BoundedQueue<Int>(depth: 2)
        let high = ManagedAtomicCounter()
        let producer = Thread {
            for i in 0..<100 {
                _ = try? queue.put(i)
                high.record(i)
            }
            queue.close()
        }
        producer.start()
        // A loaded machine may be slow to start the producer; once it has put two, a third would show in the pause.
        let deadline = Date().addingTimeInterval(10)
        while high.value < 1, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        Thread.sleep(forTimeInterval: 0.05)
        // Nothing taken yet: the producer has queued two and waits to put the third.
        XCTAssertEqual(high.value, 1)
        var taken = [Int]()
        while let item = try queue.take() { taken.append(item) }
        XCTAssertEqual(taken, Array(0..<100))
        XCTAssertNil(try queue.take(), "a closed, drained queue stays empty")
        XCTAssertFalse(try queue.put(100), "a closed queue refuses items")
    }

    func testAFailureReachesBothSides() {
        let queue = BoundedQueue<Int>(depth: 1)
        XCTAssertTrue((try? queue.put(1)) == true)
        queue.fail(Stop())
        XCTAssertThrowsError(try queue.take()) { XCTAssertTrue($0 is Stop) }
        XCTAssertThrowsError(try queue.put(2)) { XCTAssertTrue($0 is Stop) }
        XCTAssertThrowsError(try queue.waitForRoom()) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(queue.poll(), 1, "draining still hands back what was queued")
    }

    func testClosingWakesAWaitingProducer() throws {
        let queue = BoundedQueue<Int>(depth: 1)
        XCTAssertTrue(try queue.put(0))
        let returned = expectation(description: "put returned")
        Thread {
            if (try? queue.put(1)) == false { returned.fulfill() }
        }.start()
        Thread.sleep(forTimeInterval: 0.02)
        queue.close()
        wait(for: [returned], timeout: 5)
        XCTAssertFalse(queue.offer(2))
        XCTAssertEqual(try queue.take(), 0)
        XCTAssertNil(try queue.take())
    }
}

/// The highest value a producer has recorded, read from another thread.
final class ManagedAtomicCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var highest = -1
    func record(_ value: Int) { lock.lock(); highest = max(highest, value); lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return highest }
}
