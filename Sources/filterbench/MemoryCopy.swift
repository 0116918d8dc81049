import FilterCore
import FilterRecipe
import Foundation

/// The speed of copying memory on every core, the floor a per-pixel kernel is compared with: it reads and writes
/// the same bytes and does nothing else.
enum MemoryCopy {
    static func measure(mebibytes: Int, runs: Int) -> String {
        let median = seconds(mebibytes: mebibytes, runs: runs)
        let bytes = mebibytes << 20
        return String(format: "memory copy: %d MiB in %.4f s (median of %d) = %.2f GB/s read + %.2f GB/s written",
                      mebibytes, median, runs, Double(bytes) / median / 1e9, Double(bytes) / median / 1e9)
    }

    /// The median time of a copy of `mebibytes` on every core, after one warm-up.
    static func seconds(mebibytes: Int, runs: Int) -> Double {
        let bytes = mebibytes << 20
        let source = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        let destination = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        defer { source.deallocate(); destination.deallocate() }
        source.initializeMemory(as: UInt8.self, repeating: 1, count: bytes)
        destination.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        let chunks = 64, chunk = bytes / chunks
        var times = [Double]()
        for _ in 0...runs {
            let began = Date()
            DispatchQueue.concurrentPerform(iterations: chunks) { i in
                (destination + i * chunk).copyMemory(from: source + i * chunk, byteCount: chunk)
            }
            times.append(Date().timeIntervalSince(began))
        }
        return times.dropFirst().sorted()[runs / 2]
    }
}
