import FilterCore
import FilterRecipe
import Foundation

/// The live-preview benchmark: a photo previewed at 1920 px wide through a four-step look (blur, unsharp, colour
/// controls, vignette); the vignette's intensity changes 20 times. Reports a cold render (open the session:
/// decode at preview size, then run every step) beside the re-render after each change, and the cache's peak.
enum PreviewBench {
    static func look(_ intensity: Double) throws -> Image {
        try Image(input: "main").gaussianBlur(sigma: 2).unsharpMask(sigma: 1, amount: 0.5)
            .colorControls(contrast: 1.05, saturation: 1.1).vignette(intensity: intensity)
    }

    static func run(photo: String, runs: Int, machine: String) throws {
        func seconds(_ body: () throws -> Void) rethrows -> Double {
            let began = Date()
            try body()
            return Date().timeIntervalSince(began)
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        var cold = [Double]()
        for _ in 0..<max(1, runs) {
            cold.append(try seconds {
                let session = try PreviewSession(inputs: ["main": photo], previewWidth: 1920)
                _ = try session.render(try look(0.3))
            })
        }
        let session = try PreviewSession(inputs: ["main": photo], previewWidth: 1920)
        let first = try session.render(try look(0.3))
        var edits = [Double]()
        for step in 1...20 {
            edits.append(try seconds { _ = try session.render(try look(0.3 + 0.02 * Double(step))) })
        }
        let stats = session.statistics
        print("live preview: \(URL(fileURLWithPath: photo).lastPathComponent) at \(first.width)×\(first.height), \(machine)")
        print(String(format: "| cold render (open session, decode at preview size, 4 steps), median of %d | %.3f s |", cold.count, median(cold)))
        print(String(format: "| re-render after a vignette change, median of 20 | %.4f s |", median(edits)))
        print(String(format: "| speed-up | %.0f× |", median(cold) / median(edits)))
        print("| nodes run / from cache over the 20 edits | \(stats.nodesRun - 4) / \(stats.nodesFromCache) |")
        print(String(format: "| cache peak | %.0f MiB |", Double(stats.peakCachedBytes) / 1_048_576))
    }
}
