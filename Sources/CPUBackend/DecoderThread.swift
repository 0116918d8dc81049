import FilterCore
import Foundation

/// Reads a source's rows ahead on a stage thread (`StageThreads`), so decoding (libpng inflate, single-threaded) overlaps the
/// filters and the encoder. Chunks of about 512 KiB pass through a `BoundedQueue` of `depth − 1` while the reader
/// uses one: at most `depth` (2) chunks are held, so memory stays bounded (three 1 MiB chunks cost a two-file
/// thumbnail batch 10 MiB of peak memory and bought no speed). The first error is thrown to the reader; `stop()`
/// ends reading early (a plan that needs only the top rows).
final class DecoderThread: ImageRowSource {
    let width: Int
    let height: Int
    let format: PixelFormat
    private(set) var nextRow = 0

    private struct Chunk {
        var buffer: UnsafeMutableRawPointer
        var rows: Int
    }

    private let source: ImageRowSource
    private let firstRow: Int
    private let rowBytes: Int
    private let chunkRows: Int
    private let chunks: BoundedQueue<Chunk>
    /// Buffers handed back by the reader, reused (allocating each chunk anew grew the heap by ~15 MiB).
    private let spare: BoundedQueue<UnsafeMutableRawPointer>
    /// The chunk being handed out, and how many of its rows were.
    private var current: Chunk?
    private var consumed = 0
    private let ended = DispatchSemaphore(value: 0)
    private var stopped = false
    /// Seconds the reading thread spent in the source (read after `stop()`).
    private(set) var busySeconds = 0.0

    /// Rows above `firstRow` (above a crop) are passed over (`ImageRowSource.skipRows`) before reading.
    init(_ source: ImageRowSource, depth: Int = 2, firstRow: Int = 0) {
        self.source = source
        self.firstRow = min(max(0, firstRow), source.height)
        nextRow = self.firstRow
        width = source.width
        height = source.height
        format = source.format
        rowBytes = width * format.bytesPerPixel
        chunkRows = max(1, (1 << 19) / max(1, rowBytes))
        chunks = BoundedQueue(depth: depth - 1)
        spare = BoundedQueue(depth: depth + 1)
        StageThreads.run { [self] in self.read() }
    }

    deinit {
        current?.buffer.deallocate()
        while let chunk = chunks.poll() { chunk.buffer.deallocate() }
        while let buffer = spare.poll() { buffer.deallocate() }
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
        while done < count {
            if current == nil {
                guard let next = try chunks.take() else { throw PlanError("the decoder stopped before row \(nextRow)") }
                current = next
                consumed = 0
            }
            guard let chunk = current else { continue }
            let take = min(count - done, chunk.rows - consumed)
            try body(UnsafeRawPointer(chunk.buffer + consumed * rowBytes), done, take)
            done += take
            consumed += take
            nextRow += take
            if consumed == chunk.rows {
                if !spare.offer(chunk.buffer) { chunk.buffer.deallocate() }
                current = nil
            }
        }
    }

    /// Stops reading ahead and waits for the reading thread to end.
    func stop() {
        guard !stopped else { return }
        stopped = true
        chunks.close()
        ended.wait()
    }

    private func read() {
        defer { ended.signal() }
        let skipping = monotonicSeconds()
        do {
            try WorkerPool.asHelper { try source.skipRows(firstRow) }
        } catch {
            chunks.fail(error)
            return
        }
        busySeconds += monotonicSeconds() - skipping
        var row = firstRow
        while row < height {
            // Read a chunk only when it can be queued: the reader's chunk and the queued one are all that is held.
            guard (try? chunks.waitForRoom()) == true else { return }
            let rows = min(chunkRows, height - row)
            let buffer = spare.poll() ?? UnsafeMutableRawPointer.allocate(byteCount: chunkRows * rowBytes, alignment: 64)
            let began = monotonicSeconds()
            do {
                try WorkerPool.asHelper { try source.readRows(into: buffer, stride: rowBytes, count: rows) }
            } catch {
                buffer.deallocate()
                chunks.fail(error)
                return
            }
            busySeconds += monotonicSeconds() - began
            row += rows
            do {
                guard try chunks.put(Chunk(buffer: buffer, rows: rows)) else { buffer.deallocate(); return }
            } catch {
                buffer.deallocate()
                return
            }
        }
        chunks.close()
    }
}
