import FilterCore

/// Rows of working pixels (4 floats each) for one stage: rows `first ..< first + count`, contiguous.
final class RowCache {
    let rowFloats: Int
    private(set) var storage: UnsafeMutablePointer<Float>
    private(set) var capacity: Int
    private(set) var first = 0
    private(set) var count = 0
    private let stats: RenderStats

    var end: Int { first + count }

    init(width: Int, stats: RenderStats) {
        rowFloats = width * 4
        capacity = 0
        storage = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        self.stats = stats
    }

    deinit {
        storage.deallocate()
        stats.released(capacity * rowFloats * 4)
    }

    /// Drops rows below `row`; an emptied cache restarts at `row`.
    func trim(below row: Int) {
        guard row > first else { return }
        let drop = min(count, row - first)
        if drop < count {
            storage.update(from: storage + drop * rowFloats, count: (count - drop) * rowFloats)
        }
        count -= drop
        first = count == 0 ? max(row, first + drop) : first + drop
    }

    /// Makes room for `rows` more rows and returns where they go.
    func append(_ rows: Int) -> UnsafeMutablePointer<Float> {
        if count + rows > capacity {
            let newCapacity = max(count + rows, capacity + capacity / 2)
            let grown = UnsafeMutablePointer<Float>.allocate(capacity: newCapacity * rowFloats)
            grown.update(from: storage, count: count * rowFloats)
            storage.deallocate()
            stats.allocated((newCapacity - capacity) * rowFloats * 4)
            storage = grown
            capacity = newCapacity
        }
        let at = storage + count * rowFloats
        count += rows
        return at
    }

    /// Frees the storage (the stage has no more consumers).
    func release() {
        stats.released(capacity * rowFloats * 4)
        storage.deallocate()
        storage = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        capacity = 0
        count = 0
    }

    func view(_ rows: Range<Int>) -> RowView {
        precondition(rows.lowerBound >= first && rows.upperBound <= end, "rows \(rows) not cached (\(first)..<\(end))")
        return RowView(base: storage + (rows.lowerBound - first) * rowFloats, first: rows.lowerBound,
                       count: rows.count, rowFloats: rowFloats)
    }
}

/// A window of rows. `row(y)` clamps y into the window, which gives clamp-to-edge at the image borders because
/// windows always extend to the border rows they need.
struct RowView {
    let base: UnsafeMutablePointer<Float>
    let first: Int
    let count: Int
    let rowFloats: Int

    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<Float> {
        let clamped = y < first ? first : (y >= first + count ? first + count - 1 : y)
        return base + (clamped - first) * rowFloats
    }

    @inline(__always) func pixels(_ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        UnsafeMutableRawPointer(row(y)).assumingMemoryBound(to: SIMD4<Float>.self)
    }
}
