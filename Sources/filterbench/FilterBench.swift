import ArgumentParser
import FilterRecipe
import Foundation

/// Times recipes end to end on an image: a warm-up, then N runs; median, min and max of each stage.
/// Peak memory per case and the peer comparison are not measured here yet (see BENCHMARKS.md for how they were).
@main
struct FilterBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "filterbench",
                                                    abstract: "Time recipes on an image (CPU backend).")

    @Option(help: "Input PNG.") var image: String
    @Option(help: "Timed runs per recipe.") var runs = 5
    @Option(help: "zlib level for the output.") var compression: Int?
    @Argument(help: "Recipe files.") var recipes: [String]

    func run() throws {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?
            .trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        print("machine: \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores; backend cpu; \(runs) runs after 1 warm-up")
        print("| recipe | total s (min–max) | decode s | filter s | encode s |")
        print("|---|---|---|---|---|")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("filterbench-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        var options = Renderer.Options()
        if let compression { options.png = PNGWriteOptions(compressionLevel: compression) }
        let renderer = Renderer(backend: .cpu, options: options)
        for path in recipes {
            let recipe = try Recipe(json: Data(contentsOf: URL(fileURLWithPath: path)))
            var reports = [RenderReport]()
            for i in 0...runs {
                let report = try renderer.render(recipe, inputs: ["main": image], output: out)
                if i > 0 { reports.append(report) }
            }
            func median(_ f: (RenderReport) -> Double) -> Double { reports.map(f).sorted()[reports.count / 2] }
            let totals = reports.map(\.totalSeconds)
            print(String(format: "| %@ | %.3f (%.3f–%.3f) | %.3f | %.3f | %.3f |",
                         URL(fileURLWithPath: path).lastPathComponent, median(\.totalSeconds), totals.min()!, totals.max()!,
                         median(\.decodeSeconds), median(\.filterSeconds), median(\.encodeSeconds)))
        }
    }
}
