import Foundation

/// The results as a Markdown table (medians, with the wall-time range).
enum BenchTable {
    static func markdown(_ results: [CaseResult]) -> String {
        var lines = [
            "| image | recipe | backend | wall s (min–max) | decode s | filter s | transfer s | compile s | encode s | peak MiB |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in results {
            let image = URL(fileURLWithPath: r.image).lastPathComponent
            // A case asked for one backend may have run on another (auto, or a fallback): say so.
            let asked = String(r.backend.split(separator: " ").first ?? "")
            let ranOn = Set(r.runs.map(\.ranOn))
            let backend = ranOn == [asked] || ranOn.isEmpty ? r.backend : "\(r.backend) → \(ranOn.sorted().joined(separator: ","))"
            lines.append(String(format: "| %@ | %@ | %@ | %.3f (%.3f–%.3f) | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f |",
                                image, r.recipe, backend, r.wall.median, r.wall.min, r.wall.max, r.decode.median,
                                r.filter.median, r.transfer.median, r.compile.median, r.encode.median, r.peakMiB))
        }
        return lines.joined(separator: "\n")
    }
}
