import Foundation

/// What a render measured: time per node, memory held in intermediate rows, transfers.
public final class RenderStats: @unchecked Sendable {
    public struct NodeTiming: Sendable, Codable, CustomStringConvertible {
        public var id: String
        public var op: String
        /// The backend that ran it (`cpu` or `vulkan`).
        public var backend: Backend
        public var seconds: Double
        /// Bytes of rows the node's stages wrote (on the CPU: working floats at 16 bytes a pixel, stored samples at
        /// 1–8), nil where not counted (Vulkan): what the representation a node is held in costs.
        public var bytesWritten: Int?
        public var description: String {
            String(format: "%@ %@ [%@] %.3f s", id, op, backend.rawValue, seconds)
                + (bytesWritten.map { String(format: ", %.1f MiB written", Double($0) / 1_048_576) } ?? "")
        }
    }

    /// One stretch of a render on the process's monotonic clock: decoding, the device's work (upload, kernels,
    /// download), encoding — or, on the CPU, all three streamed together. A batch lays its files' stages side by
    /// side to show how they overlap.
    public struct Stage: Sendable, Codable, Equatable, CustomStringConvertible {
        public var name: String
        /// Seconds on the process's monotonic clock (CLOCK_MONOTONIC) when it began.
        public var start: Double
        public var seconds: Double
        public var description: String { String(format: "%@ %.3f s", name, seconds) }

        public init(name: String, start: Double, seconds: Double) {
            self.name = name
            self.start = start
            self.seconds = seconds
        }
    }

    private let lock = NSLock()
    package private(set) var nodes: [NodeTiming] = []
    package private(set) var stages: [Stage] = []

    /// Records a stage that began at `start` (monotonic seconds) and ends now.
    package func stage(_ name: String, since start: Double) {
        let now = monotonicSeconds()
        lock.withLock { stages.append(Stage(name: name, start: start, seconds: now - start)) }
    }
    /// Bytes held in intermediate row caches right now, and the most at any time.
    package private(set) var liveBytes = 0
    package private(set) var peakIntermediateBytes = 0
    /// Seconds spent reading and converting input rows.
    package var decodeSeconds = 0.0
    /// Seconds spent converting and writing output rows.
    package var encodeSeconds = 0.0
    /// Seconds spent compiling kernels or fetching them from the caches (Vulkan).
    package var compileSeconds = 0.0
    /// Seconds spent moving pixels between host and device, staging copies included (Vulkan).
    package var transferSeconds = 0.0
    /// Command submissions a device render made (bounded by work, so long renders take several).
    package var submits = 0
    /// Barriers recorded between a device render's steps (each one waits for the work before it).
    package var barriers = 0
    /// Kernels compiled by glslang, and kernels read from the on-disk SPIR-V cache instead (Vulkan).
    package var kernelsCompiled = 0
    package var kernelsFromDiskCache = 0
    /// `auto`'s prices for the render and its choice, where a device was in play (`BackendChoice.explanation`).
    package var backendChoice: String?

    /// Time each device step with timestamps (per-node Vulkan times). Off unless statistics are asked for: the
    /// timestamps need a barrier after every step, which keeps independent dispatches from overlapping.
    package var timeDeviceSteps = false

    package init(timeDeviceSteps: Bool = false) { self.timeDeviceSteps = timeDeviceSteps }

    package func addTime(id: String, op: String, backend: Backend, seconds: Double, bytes: Int? = nil) {
        lock.withLock {
            if let i = nodes.firstIndex(where: { $0.id == id && $0.backend == backend }) {
                nodes[i].seconds += seconds
                if let bytes { nodes[i].bytesWritten = (nodes[i].bytesWritten ?? 0) + bytes }
            } else {
                nodes.append(NodeTiming(id: id, op: op, backend: backend, seconds: seconds, bytesWritten: bytes))
            }
        }
    }

    package func allocated(_ bytes: Int) {
        lock.withLock {
            liveBytes += bytes
            peakIntermediateBytes = max(peakIntermediateBytes, liveBytes)
        }
    }

    package func released(_ bytes: Int) { lock.withLock { liveBytes -= bytes } }

    /// Seconds spent in filter nodes (excluding sources).
    package var filterSeconds: Double { nodes.filter { $0.op != "source" }.reduce(0) { $0 + $1.seconds } }
}

/// Monotonic seconds.
package func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}
