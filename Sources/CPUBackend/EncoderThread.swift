import FilterCore
import Foundation

/// Hands converted output strips to the sink (the PNG encoder) on a stage thread (`StageThreads`), so compressing one strip
/// overlaps computing the next: deflate is single-threaded and was the largest stage of most renders. At most
/// `depth` strips wait (a `BoundedQueue`), so memory stays bounded; the first error stops the writer and is thrown
/// to the producer. Written strips' buffers are reused.
package final class EncoderThread {
    private struct Strip {
        var buffer: UnsafeMutableRawPointer
        var capacity: Int
        var stride: Int
        var count: Int
    }

    private let sink: ImageRowSink
    private let strips: BoundedQueue<Strip>
    /// Buffers the writer is done with, for the producer to fill again.
    private let spare: BoundedQueue<Strip>
    private let ended = DispatchSemaphore(value: 0)
    private var finished = false
    /// Seconds the writer spent in the sink (read after `finish()`).
    package private(set) var busySeconds = 0.0
    /// Where each strip's writing is laid out as an `encode` stage (a streamed device render's timeline).
    private let stats: RenderStats?

    /// Writes on the caller's thread instead, each strip as it comes (`RenderLoad.saturated`: every core has a render).
    private let inline: Bool

    package init(sink: ImageRowSink, depth: Int = 3, inline: Bool = false, stages: RenderStats? = nil) {
        self.sink = sink
        self.inline = inline
        stats = stages
        strips = BoundedQueue(depth: depth)
        spare = BoundedQueue(depth: depth + 1)
        if !inline { StageThreads.run { [self] in self.write() } }
    }

    deinit {
        while let strip = strips.poll() { strip.buffer.deallocate() }
        while let strip = spare.poll() { strip.buffer.deallocate() }
    }

    /// Copies `count` rows into a queued buffer; blocks while `depth` strips are waiting; throws the writer's error.
    package func write(_ source: UnsafeRawPointer, stride: Int, count: Int) throws {
        if inline {
            guard !finished else { throw CodecError(kind: .invalidRequest, path: "", message: "the encoder is finished") }
            let began = monotonicSeconds()
            defer {
                busySeconds += monotonicSeconds() - began
                stats?.stage("encode", since: began)
            }
            return try sink.writeRows(source, stride: stride, count: count)
        }
        let bytes = stride * count
        var strip = spare.poll() ?? Strip(buffer: .allocate(byteCount: bytes, alignment: 64), capacity: bytes, stride: 0, count: 0)
        if strip.capacity < bytes {
            strip.buffer.deallocate()
            strip = Strip(buffer: .allocate(byteCount: bytes, alignment: 64), capacity: bytes, stride: 0, count: 0)
        }
        strip.buffer.copyMemory(from: source, byteCount: bytes)
        (strip.stride, strip.count) = (stride, count)
        // Not queued (the queue was closed, or failed): the buffer is ours to free, once.
        let queued: Bool
        do { queued = try strips.put(strip) } catch {
            strip.buffer.deallocate()
            throw error
        }
        guard queued else {
            strip.buffer.deallocate()
            throw CodecError(kind: .invalidRequest, path: "", message: "the encoder is finished")
        }
    }

    /// Waits until every queued strip is written; throws the writer's error if there was one.
    package func finish() throws {
        if inline { finished = true; return }
        if !finished {
            finished = true
            strips.close()
            ended.wait()
        }
        if let error = strips.error { throw error }
    }

    private func write() {
        defer { ended.signal() }
        while true {
            let strip: Strip
            do {
                guard let next = try strips.take() else { return }
                strip = next
            } catch { return }
            let began = monotonicSeconds()
            do {
                try sink.writeRows(strip.buffer, stride: strip.stride, count: strip.count)
            } catch {
                strip.buffer.deallocate()
                strips.fail(error)
                return
            }
            busySeconds += monotonicSeconds() - began
            stats?.stage("encode", since: began)
            if !spare.offer(strip) { strip.buffer.deallocate() }
        }
    }
}
