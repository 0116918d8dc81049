import FilterCore
import Foundation

/// What a render did and measured; `--stats` prints it.
public struct RenderReport: Sendable {
    public var backend: String
    public var width: Int
    public var height: Int
    public var format: PixelFormat
    public var decodeSeconds: Double
    public var filterSeconds: Double
    public var encodeSeconds: Double
    /// Kernel compilation (or cache lookup) and host↔device transfers; zero on the CPU backend.
    public var compileSeconds: Double
    public var transferSeconds: Double
    public var kernelsCompiled: Int
    public var kernelsFromDiskCache: Int
    public var totalSeconds: Double
    public var peakResidentBytes: Int
    public var peakIntermediateBytes: Int
    public var transfers: TransferLedger.Counts
    public var nodes: [RenderStats.NodeTiming]
    public var warnings: [String]

    public var jsonObject: [String: Any] {
        [
            "backend": backend, "width": width, "height": height, "format": format.rawValue,
            "decodeSeconds": decodeSeconds, "filterSeconds": filterSeconds, "encodeSeconds": encodeSeconds,
            "compileSeconds": compileSeconds, "transferSeconds": transferSeconds,
            "kernelsCompiled": kernelsCompiled, "kernelsFromDiskCache": kernelsFromDiskCache,
            "totalSeconds": totalSeconds, "peakResidentBytes": peakResidentBytes,
            "peakIntermediateBytes": peakIntermediateBytes,
            "uploads": transfers.uploads, "downloads": transfers.downloads,
            "bytesUploaded": transfers.bytesUploaded, "bytesDownloaded": transfers.bytesDownloaded,
            "nodes": nodes.map { ["id": $0.id, "op": $0.op, "backend": $0.backend, "seconds": $0.seconds] },
            "warnings": warnings,
        ]
    }

    public var text: String {
        var lines = [
            "backend \(backend), \(width)×\(height) \(format.rawValue)",
            String(format: "decode %.3f s, filter %.3f s, encode %.3f s, compile %.3f s, transfer %.3f s, total %.3f s",
                   decodeSeconds, filterSeconds, encodeSeconds, compileSeconds, transferSeconds, totalSeconds),
            "peak resident \(peakResidentBytes / 1_048_576) MiB, intermediate rows \(peakIntermediateBytes / 1_048_576) MiB",
            "transfers: \(transfers.uploads) up (\(transfers.bytesUploaded) B), \(transfers.downloads) down (\(transfers.bytesDownloaded) B)",
        ]
        for node in nodes { lines.append(String(format: "  %@ %@ [%@] %.3f s", node.id, node.op, node.backend, node.seconds)) }
        return lines.joined(separator: "\n")
    }
}

/// The process's peak resident set size so far: VmHWM from /proc (it belongs to this program's memory; getrusage's
/// figure can carry over the parent's high-water mark across exec), else getrusage.
public func peakResidentBytes() -> Int {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
       let kib = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") {
        return kib * 1024
    }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
}
