import FilterCore

/// Rows of one stage (working floats or stored samples, `rowBytes` each): rows `first ..< first + count`,
/// contiguous.
final class RowCache {
    let rowBytes: Int
    private(set) var storage: UnsafeMutableRawPointer
    private(set) var capacity: Int
    private(set) var first = 0
    private(set) var count = 0
    private let stats: RenderStats

    var end: Int { first + count }

    init(rowBytes: Int, stats: RenderStats) {
        self.rowBytes = rowBytes
        capacity = 0
        storage = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 64)
        self.stats = stats
    }

    deinit {
        storage.deallocate()
        stats.released(capacity * rowBytes)
    }

    /// Drops rows below `row`; an emptied cache restarts at `row`.
    func trim(below row: Int) {
        guard row > first else { return }
        let drop = min(count, row - first)
        if drop < count {
            storage.copyMemory(from: storage + drop * rowBytes, byteCount: (count - drop) * rowBytes)
        }
        count -= drop
        first = count == 0 ? max(row, first + drop) : first + drop
    }

    /// Makes room for rows up to `end` in one allocation (a consumer asked for them all: a turn reading its whole
    /// input), instead of growing step by step, which held the old and the new storage at once while copying.
    func reserve(upTo end: Int) {
        let rows = end - first
        guard rows > capacity else { return }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: rows * rowBytes, alignment: 64)
        grown.copyMemory(from: storage, byteCount: count * rowBytes)
        storage.deallocate()
        stats.allocated((rows - capacity) * rowBytes)
        storage = grown
        capacity = rows
    }

    /// Makes room for `rows` more rows and returns where they go.
    func append(_ rows: Int) -> UnsafeMutableRawPointer {
        if count + rows > capacity {
            let newCapacity = max(count + rows, capacity + capacity / 2)
            let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity * rowBytes, alignment: 64)
            grown.copyMemory(from: storage, byteCount: count * rowBytes)
            storage.deallocate()
            stats.allocated((newCapacity - capacity) * rowBytes)
            storage = grown
            capacity = newCapacity
        }
        let at = storage + count * rowBytes
        count += rows
        return at
    }

    /// Frees the storage (the stage has no more consumers).
    func release() {
        stats.released(capacity * rowBytes)
        storage.deallocate()
        storage = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 64)
        capacity = 0
        count = 0
    }

    func view(_ rows: Range<Int>) -> RowView {
        precondition(rows.lowerBound >= first && rows.upperBound <= end, "rows \(rows) not cached (\(first)..<\(end))")
        return RowView(base: storage + (rows.lowerBound - first) * rowBytes, first: rows.lowerBound,
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
