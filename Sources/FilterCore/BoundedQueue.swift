import Foundation

/// A first-in, first-out hand-over of at most `depth` items from one thread to another, the one shape the CPU
/// backend's reading-ahead and writing-behind threads share: `put` waits while it is full, `take` while it is empty.
/// `close()` ends it from either side (a producer done, a consumer stopping early): waiting calls return, later puts
/// are refused, takes drain what is queued and then get nil. `fail(_:)` ends it with an error that every later call
/// on either side throws, so the first error stops both threads.
package final class BoundedQueue<Item>: @unchecked Sendable {  // `items`, `closed` and `failure` are guarded by `condition`
    package let depth: Int
    private let condition = NSCondition()
    private var items: [Item] = []
    private var closed = false
    private var failure: Error?

    package init(depth: Int) {
        self.depth = max(1, depth)
    }

    /// Queues `item`, waiting while `depth` items wait. False when the queue was closed (the item was not queued);
    /// throws the error it failed with.
    package func put(_ item: Item) throws -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= depth && !closed && failure == nil { condition.wait() }
        if let failure { throw failure }
        guard !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Waits while the queue is full, so a producer makes its next item only when it can be queued (and holds no
    /// more than `depth` of them). False once the queue is closed; throws the error it failed with.
    package func waitForRoom() throws -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= depth && !closed && failure == nil { condition.wait() }
        if let failure { throw failure }
        return !closed
    }

    /// The oldest item, waiting while none is queued; nil once the queue is closed and empty. Throws the error it
    /// failed with.
    package func take() throws -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed && failure == nil { condition.wait() }
        if let failure { throw failure }
        guard !items.isEmpty else { return nil }
        condition.broadcast()
        return items.removeFirst()
    }

    /// Queues `item` if there is room and the queue is open, without waiting; false otherwise.
    package func offer(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard items.count < depth, !closed, failure == nil else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The oldest item if one is queued, without waiting (and whatever the queue's state): for draining.
    package func poll() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        guard !items.isEmpty else { return nil }
        condition.broadcast()
        return items.removeFirst()
    }

    package func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the queue with `error` (the first one given is kept).
    package func fail(_ error: Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    /// The error the queue failed with, if any.
    package var error: Error? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }
}
