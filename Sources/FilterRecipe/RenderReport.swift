import FilterCore
import Foundation

/// What a render did and measured; `--stats` prints it. `description` is a one-line summary; `text` the
/// `--stats` lines; the `Codable` form is the `--stats=json` schema.
public struct RenderReport: Sendable, Codable, CustomStringConvertible {
    /// The backend that rendered (`cpu` or `vulkan`; `cpu` also when rows were only copied).
    public var backend: Backend
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
    /// Under `auto` with a device in play: both backends' prices for this render and the one taken (nil otherwise).
    public var backendChoice: String?
    /// The render's stages on the process's monotonic clock (decode, device, encode; or render, where the CPU
    /// streams all three), so a batch can show how its files overlap.
    public var stages: [RenderStats.Stage] = []

    /// The report as `--stats=json` prints it: every figure at the top level, transfers flattened, keys sorted.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The `--stats` text: backend, size, the times, memory, transfers and one line a node.
    public var text: String {
        var lines = [
            "backend \(backend.rawValue), \(width)×\(height) \(format.rawValue)",
            String(format: "decode %.3f s, filter %.3f s, encode %.3f s, compile %.3f s, transfer %.3f s, total %.3f s",
                   decodeSeconds, filterSeconds, encodeSeconds, compileSeconds, transferSeconds, totalSeconds),
            "peak resident \(peakResidentBytes / 1_048_576) MiB, intermediate rows \(peakIntermediateBytes / 1_048_576) MiB",
            "transfers: \(transfers.uploads) up (\(transfers.bytesUploaded) B), \(transfers.downloads) down (\(transfers.bytesDownloaded) B)",
        ]
        if let backendChoice { lines.insert(backendChoice, at: 1) }
        if stages.count > 1 { lines.append("stages: " + stages.map(\.description).joined(separator: ", ")) }
        for node in nodes { lines.append("  \(node)") }
        return lines.joined(separator: "\n")
    }
}

extension RenderReport {
    enum CodingKeys: String, CodingKey {
        case backend, width, height, format, decodeSeconds, filterSeconds, encodeSeconds, compileSeconds,
             transferSeconds, kernelsCompiled, kernelsFromDiskCache, totalSeconds, peakResidentBytes,
             peakIntermediateBytes, uploads, downloads, bytesUploaded, bytesDownloaded, nodes, warnings, backendChoice, stages
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        backend = try c.decode(Backend.self, forKey: .backend)
        width = try c.decode(Int.self, forKey: .width)
        height = try c.decode(Int.self, forKey: .height)
        format = try c.decode(PixelFormat.self, forKey: .format)
        decodeSeconds = try c.decode(Double.self, forKey: .decodeSeconds)
        filterSeconds = try c.decode(Double.self, forKey: .filterSeconds)
        encodeSeconds = try c.decode(Double.self, forKey: .encodeSeconds)
        compileSeconds = try c.decode(Double.self, forKey: .compileSeconds)
        transferSeconds = try c.decode(Double.self, forKey: .transferSeconds)
        kernelsCompiled = try c.decode(Int.self, forKey: .kernelsCompiled)
        kernelsFromDiskCache = try c.decode(Int.self, forKey: .kernelsFromDiskCache)
        totalSeconds = try c.decode(Double.self, forKey: .totalSeconds)
        peakResidentBytes = try c.decode(Int.self, forKey: .peakResidentBytes)
        peakIntermediateBytes = try c.decode(Int.self, forKey: .peakIntermediateBytes)
        transfers = TransferCounts()
        transfers.uploads = try c.decode(Int.self, forKey: .uploads)
        transfers.downloads = try c.decode(Int.self, forKey: .downloads)
        transfers.bytesUploaded = try c.decode(Int.self, forKey: .bytesUploaded)
        transfers.bytesDownloaded = try c.decode(Int.self, forKey: .bytesDownloaded)
        nodes = try c.decode([NodeTiming].self, forKey: .nodes)
        warnings = try c.decode([String].self, forKey: .warnings)
        backendChoice = try c.decodeIfPresent(String.self, forKey: .backendChoice)
        stages = try c.decodeIfPresent([RenderStats.Stage].self, forKey: .stages) ?? []
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(backend, forKey: .backend)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(format, forKey: .format)
        try c.encode(decodeSeconds, forKey: .decodeSeconds)
        try c.encode(filterSeconds, forKey: .filterSeconds)
        try c.encode(encodeSeconds, forKey: .encodeSeconds)
        try c.encode(compileSeconds, forKey: .compileSeconds)
        try c.encode(transferSeconds, forKey: .transferSeconds)
        try c.encode(kernelsCompiled, forKey: .kernelsCompiled)
        try c.encode(kernelsFromDiskCache, forKey: .kernelsFromDiskCache)
        try c.encode(totalSeconds, forKey: .totalSeconds)
        try c.encode(peakResidentBytes, forKey: .peakResidentBytes)
        try c.encode(peakIntermediateBytes, forKey: .peakIntermediateBytes)
        try c.encode(transfers.uploads, forKey: .uploads)
        try c.encode(transfers.downloads, forKey: .downloads)
        try c.encode(transfers.bytesUploaded, forKey: .bytesUploaded)
        try c.encode(transfers.bytesDownloaded, forKey: .bytesDownloaded)
        try c.encode(nodes, forKey: .nodes)
        try c.encode(warnings, forKey: .warnings)
        try c.encodeIfPresent(backendChoice, forKey: .backendChoice)
        try c.encode(stages, forKey: .stages)
    }

    /// One line: "cpu, 600×400 rgb8, 0.042 s (decode 0.010, filter 0.020, encode 0.012), peak 31 MiB, 1 warning".
    public var description: String {
        var line = String(format: "%@, %d×%d %@, %.3f s (decode %.3f, filter %.3f, encode %.3f), peak %d MiB", backend.rawValue,
                          width, height, format.rawValue, totalSeconds, decodeSeconds, filterSeconds, encodeSeconds,
                          peakResidentBytes / 1_048_576)
        if !warnings.isEmpty { line += ", \(warnings.count) warning\(warnings.count == 1 ? "" : "s")" }
        return line
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
