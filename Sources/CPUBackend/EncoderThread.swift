import FilterCore
import Foundation

/// Hands converted output strips to the sink (the PNG encoder) on a thread of its own, so compressing one strip
/// overlaps computing the next: deflate is single-threaded and was the largest stage of most renders. At most
/// `depth` strips wait, so memory stays bounded; the first error stops the writer and is thrown to the producer.
final class EncoderThread {
    private let sink: ImageRowSink
    private let condition = NSCondition()
    private var queue: [(buffer: UnsafeMutableRawPointer, stride: Int, count: Int)] = []
    private var spare: [(buffer: UnsafeMutableRawPointer, bytes: Int)] = []
    private var done = false
    private var failure: Error?
    private var finished = false
    private let depth: Int
    /// Seconds the writer spent in the sink.
    private(set) var busySeconds = 0.0
    private var thread: Thread!

    init(sink: ImageRowSink, depth: Int = 3) {
        self.sink = sink
        self.depth = depth
        thread = Thread { [unowned self] in self.write() }
        thread.name = "filterrun encoder"
        thread.start()
    }

    deinit {
        for item in queue { item.buffer.deallocate() }
        for item in spare { item.buffer.deallocate() }
    }

    /// Copies `count` rows into a queued buffer; blocks while `depth` strips are waiting.
    func write(_ source: UnsafeRawPointer, stride: Int, count: Int) throws {
        let bytes = stride * count
        condition.lock()
        while queue.count >= depth && failure == nil { condition.wait() }
        if let failure { condition.unlock(); throw failure }
        let reused = spare.firstIndex(where: { $0.bytes >= bytes }).map { spare.remove(at: $0).buffer }
        condition.unlock()
        let buffer = reused ?? UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        buffer.copyMemory(from: source, byteCount: bytes)
        condition.lock()
        queue.append((buffer, stride, count))
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every queued strip is written; throws the writer's error if there was one.
    func finish() throws {
        condition.lock()
        done = true
        condition.broadcast()
        while !finished { condition.wait() }
        let failure = failure
        condition.unlock()
        if let failure { throw failure }
    }

    private func write() {
        while true {
            condition.lock()
            while queue.isEmpty && !done { condition.wait() }
            if queue.isEmpty || failure != nil {
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let item = queue.removeFirst()
            condition.unlock()
            let began = monotonicSeconds()
            var error: Error?
            do { try sink.writeRows(item.buffer, stride: item.stride, count: item.count) } catch let e { error = e }
            busySeconds += monotonicSeconds() - began
            condition.lock()
            spare.append((item.buffer, item.stride * item.count))
            if let error { failure = error; done = true }
            condition.broadcast()
            condition.unlock()
        }
    }
}
