import Foundation

/// A fixed-width parallel loop. Work is split into at most a few chunks per core and run on Dispatch's worker pool,
/// which is bounded by the core count: no thread is ever created per row or per image.
package enum WorkerPool {
    /// Number of workers (the active core count, or `FILTERRUN_THREADS` when set).
    package static let width: Int = {
        if let n = EnvironmentSettings.lenient("FILTERRUN_THREADS") { return n }
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
    }()

    /// Calls `body` with disjoint sub-ranges covering `range`. Small ranges run inline on the caller.
    package static func forEachChunk(_ range: Range<Int>, minChunk: Int = 1, _ body: (Range<Int>) -> Void) {
        let count = range.count
        guard count > 0 else { return }
        let chunks = min(width * 4, max(1, count / max(1, minChunk)))
        if chunks <= 1 || width == 1 {
            body(range)
            return
        }
        DispatchQueue.concurrentPerform(iterations: chunks) { index in
            let lo = range.lowerBound + count * index / chunks
            let hi = range.lowerBound + count * (index + 1) / chunks
            if lo < hi { body(lo..<hi) }
        }
    }
}
