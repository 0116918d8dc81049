import Foundation

/// A pool of threads for blocking work, kept and reused: work runs on an idle thread, and a thread is made only
/// when every kept one is busy and fewer than `limit` exist; past the limit, work waits its turn in order. A process
/// that works continuously so makes its threads once instead of one for every job.
package final class KeptThreads: @unchecked Sendable {
    private let condition = NSCondition()   // guards everything below
    private var queue: [@Sendable () -> Void] = []
    private var idle = 0
    private var made = 0
    private var started = 0
    private let name: String
    /// The most threads the pool makes.
    package let limit: Int

    package init(name: String, limit: Int = .max) {
        precondition(limit > 0, "a pool needs a thread")
        self.name = name
        self.limit = limit
    }

    /// Runs `body` on a kept thread (an idle one, a new one while under the limit, else the first to be free);
    /// returns at once.
    package func run(_ body: @escaping @Sendable () -> Void) {
        condition.lock()
        queue.append(body)
        started += 1
        let spawn = queue.count > idle && made < limit
        if spawn { made += 1 }
        condition.signal()
        condition.unlock()
        if spawn {
            let thread = Thread { [self] in serve() }
            thread.name = name
            thread.start()
        }
    }

    /// Threads made so far (under steady load it stops growing).
    package var threadsMade: Int { condition.withLock { made } }

    /// Jobs run so far.
    package var jobsStarted: Int { condition.withLock { started } }

    /// Threads waiting for work now.
    package var idleThreads: Int { condition.withLock { idle } }

    private func serve() {
        while true {
            condition.lock()
            idle += 1
            while queue.isEmpty { condition.wait() }
            idle -= 1
            let work = queue.removeFirst()
            condition.unlock()
            work()
        }
    }
}
