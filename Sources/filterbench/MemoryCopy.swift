import FilterCore
import FilterRecipe
import Foundation

/// The speed of copying memory on every core, the floor a per-pixel kernel is compared with: it reads and writes
/// the same bytes and does nothing else.
enum MemoryCopy {
    static func measure(mebibytes: Int, runs: Int) -> String {
        let median = KernelBench.copySeconds(mebibytes: mebibytes, runs: runs)
        let bytes = mebibytes << 20
        return String(format: "memory copy: %d MiB in %.4f s (median of %d) = %.2f GB/s read + %.2f GB/s written",
                      mebibytes, median, runs, Double(bytes) / median / 1e9, Double(bytes) / median / 1e9)
    }
}
