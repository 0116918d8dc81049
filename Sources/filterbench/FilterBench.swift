import ArgumentParser
import FilterCore
import FilterRecipe
import Foundation
import VulkanBackend

/// Compares the backends on recipes and single filters: every case runs as a filterrun child process (so peak memory
/// is per run), after one warm-up, `--runs` times, cases interleaved so drift hits all alike. Prints a table, and
/// writes JSON and an HTML report with charts and thumbnails on request.
@main
struct FilterBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filterbench",
        abstract: "Time recipes and filters on each backend: stages, peak memory, device.")

    @Option(name: .customLong("image"), help: "An input PNG (repeatable).") var images: [String] = []
    @Option(name: .customLong("images"), help: "A directory of input PNGs.") var imageDirectory: String?
    @Option(name: .customLong("backend"), help: "cpu or vulkan (repeatable; default: cpu, and vulkan when a device opens).")
    var backends: [Backend] = []
    @Option(help: "Timed runs per case, after one warm-up.") var runs = 5
    @Flag(help: "Also time every catalogue filter alone, at its defaults.") var filters = false
    @Flag(help: "Also run each case with --no-optimize, to measure the optimizer.") var compareOptimizer = false
    @Option(help: "Measure a plain multi-threaded memory copy of this many MiB (the bandwidth floor for per-pixel chains).")
    var memoryCopy: Int?
    @Option(help: "zlib level for the outputs.") var compression: Int?
    @Option(help: "Write the results as JSON to this file.") var json: String?
    @Option(help: "Write an HTML report (inline SVG charts and thumbnails) to this file.") var html: String?
    @Option(help: "The filterrun binary (default: the one beside filterbench).") var filterrun: String?
    @Option(help: "Run the live-preview benchmark on this photo instead (a four-step look at 1920 px, its last step changed 20 times).")
    var preview: String?
    @Option(help: "Run the PNG encoder benchmark on this photo instead (each --png-settings entry, encode only).")
    var pngEncode: String?
    @Option(help: "For --png-encode: comma-separated libpng|ours:LEVEL:FILTER settings, the first the baseline.")
    var pngSettings = PNGEncodeBench.defaultSettings
    @Option(help: "Time the recipes' filter stages alone on this photo instead (decoded once, rendered in memory on the CPU, beside a memory copy of the working values).")
    var kernels: String?
    @Option(help: "Measure the Vulkan device's copy and host↔device bandwidth, then time the recipes on it on this photo beside those floors, instead.")
    var gpu: String?
    @Option(help: "Render every recipe and every catalogue filter on the CPU and on Vulkan from a crop of this photo (8-bit RGB, RGBA, 16-bit) and print the worst differences beside each filter's tolerance, instead.")
    var agreement: String?
    @Argument(help: "Recipe files (default: recipes/*.json).") var recipes: [String] = []

    func run() throws {
        let machine = MachineInfo.current()
        if let preview {
            try PreviewBench.run(photo: preview, runs: runs, machine: "\(machine.cpu), \(machine.cores) cores, \(machine.build) build, commit \(machine.commit)")
            return
        }
        if let pngEncode {
            try PNGEncodeBench.run(photo: pngEncode, settings: pngSettings, runs: runs,
                                   machine: "\(machine.cpu), \(machine.cores) cores, \(machine.build) build, commit \(machine.commit)")
            return
        }
        if let gpu {
            try GPUBench.run(photo: gpu, recipes: recipes.isEmpty ? try Self.repositoryRecipes() : recipes, runs: runs,
                             machine: "\(machine.cpu), \(machine.cores) cores, \(machine.build) build, commit \(machine.commit)")
            return
        }
        if let agreement {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("filterbench-\(getpid())")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            try AgreementBench.run(photo: agreement, recipes: recipes.isEmpty ? try Self.repositoryRecipes() : recipes,
                                   scratch: scratch, machine: "\(machine.cpu), \(machine.cores) cores, \(machine.build) build, commit \(machine.commit)")
            return
        }
        if let kernels {
            try KernelBench.run(photo: kernels, recipes: recipes.isEmpty ? try Self.repositoryRecipes() : recipes,
                                runs: runs, copyMebibytes: memoryCopy,
                                machine: "\(machine.cpu), \(machine.cores) cores, \(machine.build) build, commit \(machine.commit)")
            return
        }
        let binary = filterrun ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("filterrun").path
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("filterbench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        let inputs = try chooseImages()
        var recipeFiles = try recipes.isEmpty ? Self.repositoryRecipes() : recipes
        if filters { recipeFiles += try BenchRecipes.singleFilters(in: scratch) }
        let chosenBackends = backends.isEmpty
            ? [.cpu] + ((try? VulkanContext.shared()) != nil ? [.vulkan] : [])
            : backends
        var cases = [BenchCase]()
        for image in inputs {
            for file in recipeFiles {
                let recipe = try Recipe(json: Data(contentsOf: URL(fileURLWithPath: file)))
                let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
                for backend in chosenBackends {
                    let base = BenchCase(recipe: file, recipeName: name, image: image, backend: backend,
                                         extraInputs: recipe.usedInputs.filter { $0 != recipe.inputs.first })
                    cases.append(base)
                    if compareOptimizer {
                        var plain = base
                        plain.arguments = ["--no-optimize"]
                        cases.append(plain)
                    }
                }
            }
        }
        print("machine: \(machine.summary)")
        if let memoryCopy { print(MemoryCopy.measure(mebibytes: memoryCopy, runs: max(runs, 5))) }
        print("\(cases.count) cases, \(runs) runs each after 1 warm-up, interleaved; each run a filterrun process")
        var results = cases.map { CaseResult(recipe: $0.recipeName, image: $0.image, backend: $0.label, runs: []) }
        var outputs = [String](repeating: "", count: cases.count)
        for round in 0...runs {
            for (i, benchCase) in cases.enumerated() {
                let output = scratch.appendingPathComponent("case\(i).png").path
                let run = try benchCase.run(filterrun: binary, output: output, compression: compression)
                if round > 0 { results[i].runs.append(run) }
                outputs[i] = output
            }
        }
        print(BenchTable.markdown(results))
        if let json {
            struct Record<Machine: Encodable>: Encodable { var machine: Machine; var runs: Int; var cases: [CaseResult.Summary] }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(Record(machine: machine, runs: runs, cases: results.map(\.summary)))
                .write(to: URL(fileURLWithPath: json))
        }
        if let html {
            let report = try HTMLReport(machine: machine, results: results, outputs: outputs, filterrun: binary, scratch: scratch)
            try report.text.write(toFile: html, atomically: true, encoding: .utf8)
        }
    }

    func chooseImages() throws -> [String] {
        var chosen = images
        if let imageDirectory { chosen += try Self.pngs(in: imageDirectory) }
        if chosen.isEmpty {
            // The shared test photos when this checkout has them, otherwise the repository's samples.
            let shared = "../shared/testdata/photos"
            chosen = FileManager.default.fileExists(atPath: shared) ? try Self.pngs(in: shared) : try Self.pngs(in: "samples")
        }
        guard !chosen.isEmpty else { throw ValidationError("no input images: give --image or --images") }
        return chosen
    }

    static func pngs(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".png") }.sorted()
            .map { "\(directory)/\($0)" }
    }

    static func repositoryRecipes() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "recipes")
            .filter { $0.hasSuffix(".json") && $0 != "schema.json" }.sorted().map { "recipes/\($0)" }
    }
}

extension Backend: ExpressibleByArgument {}
