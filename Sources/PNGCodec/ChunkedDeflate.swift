import CPNGShim
import FilterCore
import Foundation

/// Compression work shared by every PNG encoder of the process, run on Dispatch's pool — the threads
/// `WorkerPool`'s loops run on, so compressing takes no threads of its own — at most `WorkerPool.width` jobs at once
/// (a batch's files share them, so a batch of N files never runs more deflates at once than a render uses cores).
/// Jobs never wait on anything, so an encoder waiting on them cannot deadlock.
final class DeflatePool: @unchecked Sendable {
    static let shared = DeflatePool(width: WorkerPool.width)

    let width: Int
    private let lock = NSLock()   // guards `queue` and `running`
    private var queue: [() -> Void] = []
    /// Dispatch work items taking jobs off `queue` now.
    private var running = 0

    init(width: Int) { self.width = width }

    func submit(_ work: @escaping () -> Void) {
        lock.lock()
        queue.append(work)
        let start = running < width
        if start { running += 1 }
        lock.unlock()
        if start { DispatchQueue.global().async { self.drain() } }
    }

    /// Runs jobs until none is left, then gives its thread back to Dispatch.
    private func drain() {
        while true {
            lock.lock()
            guard !queue.isEmpty else {
                running -= 1
                lock.unlock()
                return
            }
            let work = queue.removeFirst()
            lock.unlock()
            work()
        }
    }
}

/// One run of rows on its way to the file: raw rows in, a piece of the zlib stream out.
private final class DeflateJob: @unchecked Sendable {
    var raw: UnsafeMutableRawPointer?
    let context: Int
    let rows: Int
    let last: Bool
    var chunk = fr_png_chunk()
    var failed = false
    private let done = DispatchSemaphore(value: 0)
    private var collected = false

    init(raw: UnsafeMutableRawPointer, context: Int, rows: Int, last: Bool) {
        self.raw = raw
        self.context = context
        self.rows = rows
        self.last = last
    }

    deinit {
        raw?.deallocate()
        fr_png_chunk_free(&chunk)
    }

    func run(rowBytes: Int, bpp: Int, filters: Int32, level: Int32) {
        failed = fr_png_deflate_chunk(raw?.assumingMemoryBound(to: UInt8.self), rowBytes, Int32(bpp), UInt32(context),
                                      UInt32(rows), filters, level, last ? 1 : 0, &chunk) != 0
        done.signal()
    }

    /// Whether the compressed piece is ready; waits for it when `wait`.
    func ready(wait: Bool) -> Bool {
        if collected { return true }
        if wait { done.wait() } else if done.wait(timeout: .now()) != .success { return false }
        collected = true
        return true
    }
}

/// The IDAT stream of one PNG compressed on several threads, as pigz compresses gzip: rows gather into runs of about
/// `chunkBytes`; each run is filtered and deflated on the shared pool, primed with the previous run's last 32 KiB
/// (re-filtered from the raw rows it carries, so runs never wait for one another) and ended on a sync flush; the
/// pieces are written in order and the Adler-32s combined. At most two runs per thread are in flight, so memory
/// stays bounded whatever the image's size. With one thread the runs are compressed on the caller's thread.
final class ChunkedDeflate {
    enum Failure: Error { case write, memory }

    private let rowBytes: Int
    private let bpp: Int
    private let swapBytes: Bool
    private let filters: Int32
    private let level: Int32
    private let threads: Int
    private let chunkRows: Int
    /// Rows carried before a run: its first row's prior row plus enough rows to fill the 32 KiB dictionary.
    private let contextRows: Int

    private var raw: UnsafeMutableRawPointer
    private var context = 0
    private var rows = 0
    private var pending: [DeflateJob] = []
    private var spare: [UnsafeMutableRawPointer] = []
    private var adler: UInt32?

    init(width: Int, format: PixelFormat, filters: Int32, level: Int, threads: Int, chunkBytes: Int) {
        bpp = format.channels * format.depth / 8
        rowBytes = width * bpp
        swapBytes = format.depth == 16
        self.filters = filters
        self.level = Int32(level)
        self.threads = max(1, threads)
        chunkRows = max(1, chunkBytes / rowBytes)
        contextRows = 1 + (32768 + rowBytes) / (rowBytes + 1)
        raw = Self.allocate(rows: contextRows + chunkRows, rowBytes: rowBytes)
    }

    deinit {
        // Jobs still on the pool keep their own rows alive; only this encoder's buffers are freed here.
        raw.deallocate()
        for buffer in spare { buffer.deallocate() }
    }

    private static func allocate(rows: Int, rowBytes: Int) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer.allocate(byteCount: max(1, rows * rowBytes), alignment: 64)
    }

    /// Takes `count` rows from `source` (rows `stride` bytes apart, 16-bit samples in host order).
    func append(_ source: UnsafeRawPointer, stride: Int, count: Int, writer: OpaquePointer) throws {
        var row = 0
        while row < count {
            let take = min(count - row, chunkRows - rows)
            for index in 0..<take {
                let from = source + (row + index) * stride
                let to = raw + (context + rows + index) * rowBytes
                if swapBytes {
                    let samples = rowBytes / 2
                    let input = from.assumingMemoryBound(to: UInt16.self)
                    let output = to.assumingMemoryBound(to: UInt16.self)
                    for sample in 0..<samples { output[sample] = input[sample].bigEndian }
                } else {
                    to.copyMemory(from: from, byteCount: rowBytes)
                }
            }
            rows += take
            row += take
            if rows == chunkRows { try submit(last: false, writer: writer) }
        }
    }

    /// Compresses what is left, writes every piece and the stream's checksum.
    func finish(writer: OpaquePointer) throws {
        try submit(last: true, writer: writer)
        try drain(keeping: 0, writer: writer)
        guard let adler else { throw Failure.memory }
        let bytes: [UInt8] = [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        guard fr_png_writer_idat(writer, bytes, bytes.count) == 0 else { throw Failure.write }
    }

    private func submit(last: Bool, writer: OpaquePointer) throws {
        let job = DeflateJob(raw: raw, context: context, rows: rows, last: last)
        let carried = context + rows
        let nextContext = min(contextRows, carried)
        raw = spare.popLast() ?? Self.allocate(rows: contextRows + chunkRows, rowBytes: rowBytes)
        raw.copyMemory(from: job.raw! + (carried - nextContext) * rowBytes, byteCount: nextContext * rowBytes)
        context = nextContext
        rows = 0
        pending.append(job)
        let (rowBytes, bpp, filters, level) = (rowBytes, bpp, filters, level)
        if threads == 1 {
            job.run(rowBytes: rowBytes, bpp: bpp, filters: filters, level: level)
        } else {
            DeflatePool.shared.submit { job.run(rowBytes: rowBytes, bpp: bpp, filters: filters, level: level) }
        }
        try drain(keeping: 2 * threads, writer: writer)
    }

    /// Writes finished pieces in order, waiting for the oldest while more than `keeping` are in flight.
    private func drain(keeping: Int, writer: OpaquePointer) throws {
        while let job = pending.first, job.ready(wait: pending.count > keeping) {
            pending.removeFirst()
            if let buffer = job.raw { spare.append(buffer); job.raw = nil }
            guard !job.failed else { throw Failure.memory }
            guard fr_png_writer_idat(writer, job.chunk.data, job.chunk.length) == 0 else { throw Failure.write }
            adler = adler.map { fr_png_adler32_combine($0, job.chunk.adler, job.chunk.filtered_length) } ?? job.chunk.adler
        }
    }
}
