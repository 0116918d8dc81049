import ArgumentParser
import FilterRecipe
import Foundation

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Render RECIPE on INPUT into OUTPUT (the default command).",
        discussion: """
        One image: filterrun RECIPE INPUT.png OUTPUT.png. A batch: filterrun RECIPE INPUT... OUTPUT_DIR, where each \
        INPUT is a PNG, a directory of PNGs, or - for paths read from stdin; outputs mirror the inputs' names, and \
        existing outputs are skipped (so a stopped batch resumes) unless --force.
        Exit codes: 0 ok, 2 usage or recipe error, 3 input image error, 4 render or output error (in a batch: the \
        worst over the files), 130 batch cancelled with Ctrl-C.
        """)

    @Argument(help: "Recipe JSON file.") var recipe: String
    @Argument(help: "INPUT OUTPUT, or inputs (PNGs, directories, -) then an output directory.") var paths: [String] = []
    var input: String { paths.count >= 2 ? paths[0] : "" }
    var output: String { paths.last ?? "" }

    @Option(help: "auto, cpu or vulkan.") var backend: String = "auto"
    @Option(name: .customLong("input"), help: "Another recipe input: NAME=PATH (repeatable).") var inputs: [String] = []
    @Option(name: .customLong("set"), help: "Override a parameter: ID.PARAM=VALUE (chain steps are 0, 1, ...).")
    var overrides: [String] = []
    @Option(help: "Print the plan before rendering (rewrites, nodes, backend, device): --explain, or --explain=verbose to add the generated kernels.")
    var explain: String?
    @Flag(help: "Run the plan as lowered, without the optimizer's rewrites (for comparison).") var noOptimize = false
    @Option(help: "Print statistics to stderr: --stats or --stats=json.") var stats: String?
    @Option(help: "Output depth, 8 or 16 (default: the input's).") var depth: Int?
    @Option(help: "zlib level 0-9 (default 2, fast; 6 is libpng's default).") var compression: Int?
    @Option(help: "PNG row filter: none, sub, up, average, paeth, all (default up).") var filter: String?
    @Option(help: "Refuse images with more pixels than this.") var maxPixels: Int = PNGDecoder.defaultMaxPixels
    @Flag(help: "Overwrite an existing output.") var force = false
    @Flag(help: "Batch: include PNGs in subdirectories.") var recursive = false
    @Option(help: "Batch: files rendered at once (default: the number of cores).") var jobs: Int?
    @Flag(help: "Batch: no progress output.") var quiet = false
    @Option(help: "Refuse recipe files larger than this many bytes.") var maxRecipeBytes = RecipeLimits.default.maxBytes
    @Option(help: "Refuse recipes with more nodes than this.") var maxNodes = RecipeLimits.default.maxNodes

    func run() throws {}

    private func fail(_ code: Int32, _ message: String) -> Int32 {
        FileHandle.standardError.write(Data(("filterrun: " + message + "\n").utf8))
        return code
    }

    mutating func execute() -> Int32 {
        guard paths.count >= 2 else { return fail(2, "expected INPUT and OUTPUT after the recipe (see --help)") }
        guard let backendChoice = Backend(rawValue: backend) else { return fail(2, "--backend must be auto, cpu or vulkan") }
        if let depth, depth != 8 && depth != 16 { return fail(2, "--depth must be 8 or 16") }
        if let compression, !(0...9).contains(compression) { return fail(2, "--compression must be 0...9") }
        let pngFilter = filter.map { PNGWriteOptions.Filter(rawValue: $0) } ?? PNGWriteOptions.default.filter
        guard let pngFilter else { return fail(2, "--filter must be one of none, sub, up, average, paeth, all") }

        var named = [String: String]()
        for entry in inputs {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { return fail(2, "--input expects NAME=PATH, got \(entry)") }
            named[parts[0]] = parts[1]
        }
        var isDirectory: ObjCBool = false
        let batch = paths.count > 2 || input == "-"
            || (FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) && isDirectory.boolValue)
        var paths = named.merging(["main": input]) { $1 }
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath()
        for (name, path) in paths where !batch && URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath() == outputURL {
            return fail(2, "output \(output) is the input \(name); refusing to overwrite an input")
        }
        if !batch && FileManager.default.fileExists(atPath: output) && !force {
            return fail(2, "\(output) exists (use --force to overwrite)")
        }

        var parsed: Recipe
        do {
            let limits = RecipeLimits(maxBytes: maxRecipeBytes, maxNodes: maxNodes)
            let size = (try? FileManager.default.attributesOfItem(atPath: recipe)[.size] as? Int) ?? 0
            if size > limits.maxBytes {
                return fail(2, "\(recipe): \(size) bytes, more than the limit of \(limits.maxBytes) (--max-recipe-bytes)")
            }
            let data = try Data(contentsOf: URL(fileURLWithPath: recipe))
            parsed = try Recipe(json: data, limits: limits)
            for entry in overrides {
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                let target = parts.first?.split(separator: ".", maxSplits: 1).map(String.init) ?? []
                guard parts.count == 2, target.count == 2 else { return fail(2, "--set expects ID.PARAM=VALUE, got \(entry)") }
                try parsed.set(node: target[0], param: target[1], value: parts[1])
            }
        } catch let error as RecipeError {
            return fail(2, "\(recipe):\n" + error.issues.map { "  \($0)" }.joined(separator: "\n"))
        } catch {
            return fail(2, "cannot read recipe \(recipe): \(error.localizedDescription)")
        }

        let options = Renderer.Options(
            depth: depth,
            png: PNGWriteOptions(compressionLevel: compression ?? PNGWriteOptions.default.compressionLevel, filter: pngFilter),
            maxPixels: maxPixels, optimize: !noOptimize)
        let renderer = Renderer(backend: backendChoice, options: options)
        if batch {
            paths.removeValue(forKey: "main")
            return BatchMode(recipePath: recipe, recipe: parsed, renderer: renderer, extraInputs: paths,
                             jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, force: force, quiet: quiet,
                             stats: stats).run(inputs: Array(self.paths.dropLast()), outputDirectory: output, recursive: recursive)
        }
        do {
            if let explain {
                print(try renderer.explain(parsed, inputs: paths, verbose: explain == "verbose"))
            }
            let report = try renderer.render(parsed, inputs: paths, output: output)
            for warning in report.warnings { FileHandle.standardError.write(Data((warning + "\n").utf8)) }
            if let stats {
                let text: String
                if stats == "json" {
                    let data = try JSONSerialization.data(withJSONObject: report.jsonObject, options: [.sortedKeys])
                    text = String(decoding: data, as: UTF8.self)
                } else {
                    text = report.text
                }
                FileHandle.standardError.write(Data((text + "\n").utf8))
            }
            return 0
        } catch let error as RenderError {
            switch error {
            case .recipe(let e): return fail(2, "\(recipe):\n" + e.issues.map { "  \($0)" }.joined(separator: "\n"))
            case .input(let m): return fail(3, m)
            case .render(let m): return fail(4, m)
            }
        } catch {
            return fail(4, "\(error)")
        }
    }
}
