import Foundation
import Synchronization

/// A fixed-width parallel loop. Work is split into at most a few chunks per core and run on Dispatch's worker pool,
/// which is bounded by the core count: no thread is ever created per row or per image.
package enum WorkerPool {
    /// Number of workers (the active core count, or `FILTERRUN_THREADS` when set).
    package static let width: Int = {
        if let n = EnvironmentSettings.lenient("FILTERRUN_THREADS") { return n }
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
    }()

    /// Threads of our own (a decoder thread) running beside the workers right now. Each holds a core while it runs,
    /// so a parallel loop started meanwhile leaves that core to it: where the decoder is the floor, it no longer
    /// shares two cores three ways (a 20 MP JPEG thumbnail on two cores: 0.135 → 0.132 s). A helper that waits (its
    /// queue full, the filters the floor) is not counted. Letting a loop's thread that stood aside join as soon as
    /// the helper paused was slower on every recipe measured: the decoder pauses between every 512 KiB of rows.
    private static let helpers = Atomic<Int>(0)

    /// Runs `body` counted as a helper thread's work (see `helpers`).
    package static func asHelper<T>(_ body: () throws -> T) rethrows -> T {
        helpers.add(1, ordering: .relaxed)
        defer { helpers.subtract(1, ordering: .relaxed) }
        return try body()
    }

    /// Calls `body` with disjoint sub-ranges covering `range`. Small ranges, or no core to spare, run inline on the
    /// caller.
    package static func forEachChunk(_ range: Range<Int>, minChunk: Int = 1, _ body: (Range<Int>) -> Void) {
        let count = range.count
        guard count > 0 else { return }
        let threads = max(1, width - helpers.load(ordering: .relaxed))
        let chunks = min(width * 4, max(1, count / max(1, minChunk)))
        // With a render on every core (`RenderLoad.saturated`), the caller's core is all this loop gets.
        if chunks <= 1 || threads == 1 || RenderLoad.saturated {
            body(range)
            return
        }
        // `threads` threads take the chunks in turn (concurrentPerform would spread its iterations over every core).
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(threads, chunks)) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < chunks else { return }
                let lo = range.lowerBound + count * index / chunks
                let hi = range.lowerBound + count * (index + 1) / chunks
                if lo < hi { body(lo..<hi) }
            }
        }
    }

    /// Copies `byteCount` bytes on every worker, a few MiB each: one core copies 6–12 GB/s, short of what a device
    /// transfer or a mapped GPU buffer takes (an H100 host took 17 ms to stage and read back a 20 MP photo's 61 MB
    /// each way on one core, against 2.4 ms of device transfer).
    package static func copy(to destination: UnsafeMutableRawPointer, from source: UnsafeRawPointer, byteCount: Int) {
        let piece = 4 << 20
        forEachChunk(0..<((byteCount + piece - 1) / piece)) { pieces in
            let start = pieces.lowerBound * piece, end = min(byteCount, pieces.upperBound * piece)
            (destination + start).copyMemory(from: source + start, byteCount: end - start)
        }
    }
}
