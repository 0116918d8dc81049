import FilterCore
import Foundation

/// Reads a source's rows ahead on a thread of its own, so decoding (libpng inflate, single-threaded) overlaps the
/// filters and the encoder. At most `depth` (2) chunks of about 512 KiB wait, so memory stays bounded (three 1 MiB
/// chunks cost a two-file thumbnail batch 10 MiB of peak memory and bought no speed). The first error is thrown to
/// the reader; `stop()` ends reading early (a plan that needs only the top rows).
final class DecoderThread: ImageRowSource {
    let width: Int
    let height: Int
    let format: PixelFormat
    private(set) var nextRow = 0

    private let source: ImageRowSource
    private let rowBytes: Int
    private let chunkRows: Int
    private let depth: Int
    private let condition = NSCondition()
    private var ready: [(buffer: UnsafeMutableRawPointer, rows: Int)] = []
    /// Chunk buffers handed back by the reader, reused (allocating each chunk anew grew the heap by ~15 MiB).
    private var spare: [UnsafeMutableRawPointer] = []
    /// Rows of the first ready chunk already handed out.
    private var consumed = 0
    private var failure: Error?
    private var stopped = false
    private var running = true
    /// Seconds the reader spent in the source.
    private(set) var busySeconds = 0.0

    init(_ source: ImageRowSource, depth: Int = 2) {
        self.source = source
        width = source.width
        height = source.height
        format = source.format
        rowBytes = width * format.bytesPerPixel
        chunkRows = max(1, (1 << 19) / max(1, rowBytes))
        self.depth = depth
        let thread = Thread { [self] in self.read() }
        thread.name = "filterrun decoder"
        thread.start()
    }

    deinit {
        for chunk in ready { chunk.buffer.deallocate() }
        for buffer in spare { buffer.deallocate() }
    }

    func readRows(into destination: UnsafeMutableRawPointer, stride: Int, count: Int) throws {
        try borrowRows(count) { rows, first, n in
            for row in 0..<n {
                (destination + (first + row) * stride).copyMemory(from: rows + row * rowBytes, byteCount: rowBytes)
            }
        }
    }

    /// Hands the next `count` rows to `body` where the reader left them, a run of consecutive rows (`rowBytes`
    /// apart) at a time: `body(rows, index of the run's first row among the count, rows in the run)`. Saves
    /// `readRows`'s copy (a 20 MP photo's rows are 60 MB). The run stays valid until `body` returns.
    func borrowRows(_ count: Int, _ body: (UnsafeRawPointer, Int, Int) throws -> Void) throws {
        var done = 0
        condition.lock()
        defer { condition.unlock() }
        while done < count {
            while ready.isEmpty && failure == nil && running { condition.wait() }
            if let failure { throw failure }
            guard let chunk = ready.first else { throw PlanError("the decoder stopped before row \(nextRow)") }
            let take = min(count - done, chunk.rows - consumed)
            // The reader only appends chunks, and this one is recycled only below: it can be read unlocked.
            condition.unlock()
            do {
                try body(UnsafeRawPointer(chunk.buffer + consumed * rowBytes), done, take)
            } catch {
                condition.lock()
                throw error
            }
            condition.lock()
            done += take
            consumed += take
            nextRow += take
            if consumed == chunk.rows {
                spare.append(chunk.buffer)
                ready.removeFirst()
                consumed = 0
                condition.broadcast()
            }
        }
    }

    /// Stops reading ahead and waits for the reader to finish its current chunk.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }

    private func read() {
        var row = 0
        var error: Error?
        while row < height {
            condition.lock()
            while ready.count >= depth && !stopped { condition.wait() }
            let stop = stopped
            let reused = spare.popLast()
            condition.unlock()
            if stop { break }
            let rows = min(chunkRows, height - row)
            let buffer = reused ?? UnsafeMutableRawPointer.allocate(byteCount: chunkRows * rowBytes, alignment: 64)
            let began = monotonicSeconds()
            do {
                try WorkerPool.asHelper { try source.readRows(into: buffer, stride: rowBytes, count: rows) }
            } catch let e {
                condition.lock()
                spare.append(buffer)
                condition.unlock()
                error = e
                break
            }
            busySeconds += monotonicSeconds() - began
            row += rows
            condition.lock()
            ready.append((buffer, rows))
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        if let error { failure = error }
        running = false
        condition.broadcast()
        condition.unlock()
    }
}
