import Foundation

/// A self-contained HTML page: for each image, a bar chart (inline SVG) of median wall time per recipe and backend,
/// stacked by stage, and thumbnails of the input and of each backend's output so a reader sees that they agree.
/// No JavaScript, no network.
struct HTMLReport {
    let text: String

    static let colours = ["decode": "#4e79a7", "filter": "#f28e2b", "transfer": "#e15759", "compile": "#76b7b2",
                          "encode": "#59a14f", "other": "#bab0ac"]

    init(machine: MachineInfo, results: [CaseResult], outputs: [String], filterrun: String, scratch: URL) throws {
        var body = "<h1>filterbench</h1><p>\(Self.escape(machine.summary))</p>"
        body += "<p>Bars: median wall time of \(results.first?.runs.count ?? 0) runs (each a filterrun process), split "
            + "into stages as filterrun measured them; &ldquo;other&rdquo; is process start, device set-up and the rest.</p>"
        body += "<p>" + Self.colours.keys.sorted().map { "<span style=\"color:\(Self.colours[$0]!)\">■</span> \($0)" }
            .joined(separator: " &nbsp; ") + "</p>"
        let images = results.map(\.image).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let thumbnailer = Thumbnailer(filterrun: filterrun, scratch: scratch)
        for image in images {
            let cases = results.indices.filter { results[$0].image == image }
            body += "<h2>\(Self.escape(URL(fileURLWithPath: image).lastPathComponent))</h2>"
            body += Self.chart(cases.map { results[$0] })
            body += "<table><tr><th>input</th><td>\(try thumbnailer.image(image))</td></tr>"
            let recipes = cases.map { results[$0].recipe }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            for recipe in recipes {
                body += "<tr><th>\(Self.escape(recipe))</th>"
                for i in cases where results[i].recipe == recipe {
                    body += "<td>\(try thumbnailer.image(outputs[i]))<br>\(results[i].backend)</td>"
                }
                body += "</tr>"
            }
            body += "</table>"
        }
        text = """
        <!doctype html><html><head><meta charset="utf-8"><title>filterbench</title>
        <style>body{font:14px sans-serif;margin:2em}td,th{padding:4px;text-align:center;vertical-align:top}
        th{text-align:right}img{max-width:160px}</style></head><body>\(body)</body></html>
        """
    }

    /// Horizontal stacked bars, one per case.
    static func chart(_ cases: [CaseResult]) -> String {
        let rowHeight = 22, labelWidth = 260, barWidth = 520
        let longest = max(cases.map { $0.wall.median }.max() ?? 1, 1e-9)
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(labelWidth + barWidth + 80)\" height=\"\(cases.count * rowHeight + 10)\" font-size=\"12\">"
        for (row, result) in cases.enumerated() {
            let y = row * rowHeight + 5
            svg += "<text x=\"\(labelWidth - 6)\" y=\"\(y + 14)\" text-anchor=\"end\">\(escape(result.recipe)) · \(result.backend)</text>"
            var x = Double(labelWidth)
            let stages: [(String, Double)] = [("decode", result.decode.median), ("filter", result.filter.median),
                                              ("transfer", result.transfer.median), ("compile", result.compile.median),
                                              ("encode", result.encode.median)]
            let known = stages.reduce(0) { $0 + $1.1 }
            for (name, seconds) in stages + [("other", max(0, result.wall.median - known))] {
                let width = seconds / longest * Double(barWidth)
                svg += String(format: "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" fill=\"%@\"><title>%@ %.3f s</title></rect>",
                              x, y, width, colours[name]!, name, seconds)
                x += width
            }
            svg += String(format: "<text x=\"%.1f\" y=\"%d\">%.3f s</text>", x + 4, y + 14, result.wall.median)
        }
        return svg + "</svg>"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// 160-pixel-wide thumbnails made by filterrun itself, embedded as data URIs.
struct Thumbnailer {
    let filterrun: String
    let scratch: URL

    func image(_ path: String) throws -> String {
        let recipe = scratch.appendingPathComponent("thumbnail.json")
        if !FileManager.default.fileExists(atPath: recipe.path) {
            try #"{"version": 1, "steps": [{"op": "resize", "width": 160}]}"#.write(to: recipe, atomically: true, encoding: .utf8)
        }
        let output = scratch.appendingPathComponent("thumbnail-\(UUID().uuidString).png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: filterrun)
        process.arguments = [recipe.path, path, output.path, "--backend", "cpu", "--depth", "8"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let data = try? Data(contentsOf: output) else { return "(no thumbnail)" }
        try? FileManager.default.removeItem(at: output)
        return "<img alt=\"\" src=\"data:image/png;base64,\(data.base64EncodedString())\">"
    }
}
