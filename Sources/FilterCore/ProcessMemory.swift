import CProcessMemory

/// How a process that renders one image after another (filterserve, a batch) keeps the memory a render frees.
///
/// glibc's malloc serves a large block (over 128 KiB at first) from a fresh mapping and unmaps it when freed, and
/// hands the free top of a thread's heap back to the kernel. A render's buffers are that size — a 12 MP JPEG's scan
/// unstuffed, its block positions, a thumbnail's rows: 3–5 MiB — so every render met them again as page faults, the
/// kernel zeroing each page: filterserve took ~800 faults a request, 14 % of its CPU under load (BENCHMARKS.md).
/// Kept, the next render reuses the same pages.
package enum ProcessMemory {
    /// Blocks under this size come from the heaps; larger ones (a full-size float image) are still mapped and
    /// unmapped, so a rare large render does not stay resident.
    package static let mappedAbove = 32 << 20
    /// Free memory kept at the top of each heap: a few renders' worth.
    package static let keptFree = 64 << 20

    /// Keeps freed memory for the next render (once; later calls do nothing). False where the C library is not
    /// glibc, which then allocates as it always does.
    @discardableResult
    package static func keepForReuse() -> Bool { applied }

    private static let applied: Bool = fr_keep_freed_memory(mappedAbove, keptFree) == 1
}
