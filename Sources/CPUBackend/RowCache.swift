import FilterCore
#if canImport(Glibc)
import Glibc
#endif

/// Rows of one stage (working floats or stored samples, `rowBytes` each): rows `first ..< first + count`,
/// contiguous.
final class RowCache {
    let rowBytes: Int
    private(set) var storage: UnsafeMutableRawPointer
    private(set) var capacity: Int
    private(set) var first = 0
    private(set) var count = 0
    /// Rows of storage before row `first`: dropped rows are passed over, and the kept ones moved to the front only
    /// when room runs out (moving them on every trim cost a large window its whole size per strip).
    private var offset = 0
    private let stats: RenderStats

    var end: Int { first + count }

    /// Where row `first` is stored (the rows follow it, contiguous).
    var rows: UnsafeMutableRawPointer { storage + offset * rowBytes }

    init(rowBytes: Int, stats: RenderStats) {
        self.rowBytes = rowBytes
        capacity = 0
        storage = Self.allocate(nil, bytes: 1)
        self.stats = stats
    }

    /// Storage from malloc, so that growing it is a realloc: a large block is remapped in place of being copied
    /// and faulted in again (a rotation's window grows to most of its input a few rows at a time).
    private static func allocate(_ old: UnsafeMutableRawPointer?, bytes: Int) -> UnsafeMutableRawPointer {
        guard let block = realloc(old, max(1, bytes)) else { fatalError("out of memory growing a row cache to \(bytes) bytes") }
        return block
    }

    deinit {
        free(storage)
        stats.released(capacity * rowBytes)
    }

    /// Drops rows below `row`; an emptied cache restarts at `row`.
    func trim(below row: Int) {
        guard row > first else { return }
        let drop = min(count, row - first)
        count -= drop
        offset = count == 0 ? 0 : offset + drop
        first = count == 0 ? max(row, first + drop) : first + drop
    }

    /// Room for `rows` rows, the kept ones (compacted) at its front.
    private func grow(to rows: Int) {
        compact()
        storage = Self.allocate(storage, bytes: rows * rowBytes)
        stats.allocated((rows - capacity) * rowBytes)
        capacity = rows
    }

    /// Moves the kept rows to the front of the storage.
    private func compact() {
        guard offset > 0 else { return }
        if count > 0 { storage.copyMemory(from: storage + offset * rowBytes, byteCount: count * rowBytes) }
        offset = 0
    }

    /// Makes room for rows up to `end` in one allocation (a consumer asked for them all: a turn reading its whole
    /// input), instead of growing step by step, which held the old and the new storage at once while copying.
    func reserve(upTo end: Int) {
        let rows = end - first
        guard rows > capacity - offset else { return }
        compact()
        if rows > capacity { grow(to: rows) }
    }

    /// Makes room for `rows` more rows and returns where they go.
    func append(_ rows: Int) -> UnsafeMutableRawPointer {
        if offset + count + rows > capacity { compact() }
        if count + rows > capacity { grow(to: max(count + rows, capacity + capacity / 2)) }
        let at = storage + (offset + count) * rowBytes
        count += rows
        return at
    }

    /// Frees the storage (the stage has no more consumers).
    func release() {
        stats.released(capacity * rowBytes)
        free(storage)
        storage = Self.allocate(nil, bytes: 1)
        capacity = 0
        count = 0
        offset = 0
    }

    func view(_ rows: Range<Int>) -> RowView {
        precondition(rows.lowerBound >= first && rows.upperBound <= end, "rows \(rows) not cached (\(first)..<\(end))")
        return RowView(base: storage + (offset + rows.lowerBound - first) * rowBytes, first: rows.lowerBound,
                       count: rows.count, rowBytes: rowBytes)
    }
}

/// A window of rows. `row(y)` clamps y into the window, which gives clamp-to-edge at the image borders because
/// windows always extend to the border rows they need.
struct RowView {
    let base: UnsafeMutableRawPointer
    let first: Int
    let count: Int
    let rowBytes: Int

    /// Row `y`'s bytes (clamped into the window).
    @inline(__always) func bytes(_ y: Int) -> UnsafeMutableRawPointer {
        let clamped = y < first ? first : (y >= first + count ? first + count - 1 : y)
        return base + (clamped - first) * rowBytes
    }

    /// Row `y` as working floats (a view of a working stage).
    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<Float> {
        bytes(y).assumingMemoryBound(to: Float.self)
    }

    @inline(__always) func pixels(_ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        bytes(y).assumingMemoryBound(to: SIMD4<Float>.self)
    }
}
