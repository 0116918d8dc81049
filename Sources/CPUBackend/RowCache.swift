import CKernels
import FilterCore
#if canImport(Glibc)
import Glibc
#endif

/// Rows of one stage (working floats or stored samples, `rowBytes` each): rows `first ..< first + count`,
/// contiguous.
///
/// Rows are kept in plain memory, and the kept ones moved to the front when room runs out — unless the rows kept
/// fill two thirds of the storage or more: a window much taller than a strip (a wide blur's reach, or rows a second
/// consumer has not read yet) was moved nearly whole on every strip, 2.4 GB moved for a 20 MP black-and-white
/// recipe. Such a cache turns into a ring mapped twice back to back (`fr_mirror`), where the kept rows stay put and a
/// run of rows that wraps is still contiguous. Only those: a page mapped twice counts twice in the resident size.
final class RowCache {
    let rowBytes: Int
    private(set) var first = 0
    private(set) var count = 0
    /// Byte offset of row `first` in the storage (below the ring's size when mirrored).
    private var head = 0
    private var mirror = fr_mirror(base: nil, size: 0, fd: -1)
    /// The storage until it becomes a ring.
    private var plain: UnsafeMutableRawPointer?
    private var plainBytes = 0
    private let stats: RenderStats
    private static let page = fr_mirror_page()
    /// What an empty cache points at: views of no rows need an address.
    nonisolated(unsafe) private static let nowhere = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)

    var end: Int { first + count }

    /// Rows that fit in the storage.
    var capacity: Int { storageBytes / rowBytes }

    private var mirrored: Bool { mirror.base != nil }
    /// Whether the rows live in a ring (for tests).
    var isRing: Bool { mirrored }
    private var storageBytes: Int { mirrored ? mirror.size : plainBytes }
    private var base: UnsafeMutableRawPointer { mirror.base.map { UnsafeMutableRawPointer($0) } ?? plain ?? Self.nowhere }

    /// Where row `first` is stored (the rows follow it, contiguous).
    var rows: UnsafeMutableRawPointer { base + head }

    init(rowBytes: Int, stats: RenderStats) {
        self.rowBytes = max(1, rowBytes)
        self.stats = stats
    }

    deinit { release() }

    /// The byte offset `rows` rows after `offset`, wrapped into the ring.
    private func offset(_ offset: Int, plus rows: Int) -> Int {
        let bytes = offset + rows * rowBytes
        return mirrored ? bytes % mirror.size : bytes
    }

    /// Drops rows below `row`; an emptied cache restarts at `row`.
    func trim(below row: Int) {
        guard row > first else { return }
        let drop = min(count, row - first)
        count -= drop
        if count == 0 {
            head = 0
            first = max(row, first + drop)
        } else {
            head = offset(head, plus: drop)
            first += drop
        }
    }

    /// Room for `rows` rows in all, the kept ones (compacted, in plain memory) at its front.
    private func grow(to rows: Int) {
        if mirrored {
            // Whole pages, holding the kept rows where they are (a wrapped run continues past the old end).
            let size = pages(max(rows * rowBytes, head + count * rowBytes)), old = mirror.size
            if fr_mirror_grow(&mirror, size) == 0 {
                let wrapped = head + count * rowBytes - old
                if wrapped > 0 { (base + old).copyMemory(from: base, byteCount: wrapped) }
                stats.allocated(size - old)
                return
            }
            // Refused: back to plain memory, the kept rows (contiguous through the mirror) at its front.
            leaveRing()
        }
        compact()
        // realloc: a large block is remapped rather than copied (a rotation's window grows to most of its input).
        let wanted = rows * rowBytes
        guard let block = realloc(plain, max(1, wanted)) else { fatalError("out of memory growing a row cache to \(wanted) bytes") }
        stats.allocated(wanted - plainBytes)
        plain = block
        plainBytes = wanted
    }

    private func pages(_ bytes: Int) -> Int { (bytes + Self.page - 1) / Self.page * Self.page }

    /// Makes room at the end without growing: moves the kept rows to the front, or, where they fill two thirds of
    /// the storage or more (so each move would copy at least twice the rows it makes room for), turns the storage
    /// into a ring so they never move again.
    private func makeRoom() {
        guard !mirrored, head > 0, let plain else { return }
        if count > 0 && 3 * count >= 2 * capacity {
            var ring = fr_mirror(base: nil, size: 0, fd: -1)
            if fr_mirror_create(&ring, pages(plainBytes)) == 0 {
                UnsafeMutableRawPointer(ring.base!).copyMemory(from: plain + head, byteCount: count * rowBytes)
                stats.allocated(ring.size)
                stats.released(plainBytes)
                free(plain)
                self.plain = nil
                plainBytes = 0
                mirror = ring
                head = 0
                return
            }
        }
        compact()
    }

    /// Plain storage: moves the kept rows to the front.
    private func compact() {
        guard !mirrored, head > 0, let plain else { return }
        if count > 0 { plain.copyMemory(from: plain + head, byteCount: count * rowBytes) }
        head = 0
    }

    /// Leaves the ring for plain memory of the same size.
    private func leaveRing() {
        let bytes = mirror.size
        guard let block = malloc(bytes) else { fatalError("out of memory moving a row cache of \(bytes) bytes") }
        if count > 0 { block.copyMemory(from: base + head, byteCount: count * rowBytes) }
        fr_mirror_destroy(&mirror)
        plain = block
        plainBytes = bytes
        head = 0
    }

    /// Makes room for rows up to `end` in one allocation (a consumer asked for them all: a turn reading its whole
    /// input), instead of growing step by step.
    func reserve(upTo end: Int) {
        let rows = end - first
        if rows > capacity {
            grow(to: rows)
        } else if !mirrored && head + rows * rowBytes > plainBytes {
            makeRoom()
        }
    }

    /// Makes room for `rows` more rows and returns where they go (contiguous).
    func append(_ rows: Int) -> UnsafeMutableRawPointer {
        if count + rows > capacity {
            grow(to: max(count + rows, capacity + capacity / 2))
        } else if !mirrored && head + (count + rows) * rowBytes > plainBytes {
            makeRoom()
        }
        let at = base + offset(head, plus: count)
        count += rows
        return at
    }

    /// Frees the storage (the stage has no more consumers).
    func release() {
        stats.released(storageBytes)
        if mirrored { fr_mirror_destroy(&mirror) }
        free(plain)
        plain = nil
        plainBytes = 0
        count = 0
        head = 0
    }

    func view(_ rows: Range<Int>) -> RowView {
        precondition(rows.lowerBound >= first && rows.upperBound <= end, "rows \(rows) not cached (\(first)..<\(end))")
        return RowView(base: base + offset(head, plus: rows.lowerBound - first), first: rows.lowerBound,
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
