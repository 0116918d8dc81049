@testable import CPUBackend
import FilterCore
import TestSupport
import XCTest

/// The row cache against a model of the rows it should hold: a window moving down (kept rows fewer than and many
/// times those coming, so the storage stays plain or becomes a ring), a ring growing while its rows wrap, a consumer
/// reserving everything at once, and rows that do not divide a page.
final class RowCacheTests: XCTestCase {
    /// Fills row `y` with bytes derived from y.
    private func fill(_ row: UnsafeMutableRawPointer, _ y: Int, _ rowBytes: Int) {
        for i in 0..<rowBytes { row.storeBytes(of: UInt8(truncatingIfNeeded: y &* 31 &+ i &* 7), toByteOffset: i, as: UInt8.self) }
    }

    private func check(_ view: RowView, _ rows: Range<Int>, _ rowBytes: Int, _ what: String,
                       file: StaticString = #filePath, line: UInt = #line) {
        // Rows must be contiguous from the view's base, whichever way the cache holds them.
        for y in rows {
            let row = view.base + (y - view.first) * rowBytes
            XCTAssertEqual(row, view.bytes(y), what, file: file, line: line)
            for i in stride(from: 0, to: rowBytes, by: max(1, rowBytes / 5)) {
                let expected = UInt8(truncatingIfNeeded: y &* 31 &+ i &* 7)
                guard row.load(fromByteOffset: i, as: UInt8.self) == expected else {
                    return XCTFail("\(what): row \(y) byte \(i) is not the row's", file: file, line: line)
                }
            }
        }
    }

    /// A consumer reading a window of `window` rows that moves down `strip` rows at a time, as a stage does.
    private func slide(rowBytes: Int, window: Int, strip: Int, height: Int, ring: Bool) {
        let stats = RenderStats()
        let cache = RowCache(rowBytes: rowBytes, stats: stats)
        var top = 0
        while top < height {
            let wanted = top..<min(height, top + window + strip)
            cache.trim(below: top)
            cache.reserve(upTo: wanted.upperBound)
            while cache.end < wanted.upperBound {
                let start = cache.end, n = min(strip, wanted.upperBound - start)
                let at = cache.append(n)
                for r in 0..<n { fill(at + r * rowBytes, start + r, rowBytes) }
            }
            check(cache.view(wanted), wanted, rowBytes, "\(rowBytes)-byte rows, window \(window), strip \(strip), rows \(wanted)")
            top += strip
        }
        XCTAssertEqual(cache.isRing, ring, "\(rowBytes)-byte rows, window \(window), strip \(strip)")
        cache.release()
        XCTAssertGreaterThan(stats.peakIntermediateBytes, 0)
    }

    func testWindowsMovingDown() {
        for (rowBytes, window, strip, ring) in [(100, 3, 8, false), (4096, 12, 12, false), (5000, 40, 7, true),
                                                (96_448, 60, 12, true), (1, 100, 3, true), (12_345, 2, 30, false)] {
            slide(rowBytes: rowBytes, window: window, strip: strip, height: 700, ring: ring)
        }
    }

    /// A ring that must grow while its kept rows wrap past its end keeps them, in order.
    func testRingGrowsWithWrappedRows() {
        let rowBytes = 3000, stats = RenderStats()
        let cache = RowCache(rowBytes: rowBytes, stats: stats)
        var next = 0
        func add(_ n: Int) {
            let at = cache.append(n)
            for r in 0..<n { fill(at + r * rowBytes, next + r, rowBytes) }
            next += n
        }
        add(30)
        // Many kept rows against few coming: the storage becomes a ring and wraps.
        for _ in 0..<25 {
            cache.trim(below: next - 28)
            cache.reserve(upTo: next + 2)
            add(2)
            check(cache.view(cache.first..<cache.end), cache.first..<cache.end, rowBytes, "sliding")
        }
        XCTAssertTrue(cache.isRing)
        // Then the window grows to many times the ring.
        for _ in 0..<20 {
            add(17)
            check(cache.view(cache.first..<cache.end), cache.first..<cache.end, rowBytes, "growing")
        }
        cache.reserve(upTo: cache.end + 400)
        add(400)
        check(cache.view(cache.first..<cache.end), cache.first..<cache.end, rowBytes, "reserved")
        cache.trim(below: cache.end - 3)
        check(cache.view(cache.first..<cache.end), cache.first..<cache.end, rowBytes, "trimmed")
        cache.trim(below: cache.end + 5)
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.first, next + 5)
        cache.release()
    }
}
