import ArgumentParser
import FilterCore
import FilterRecipe
import Foundation

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Render RECIPE on INPUT into OUTPUT (the default command).",
        discussion: """
        One image: filterrun RECIPE INPUT OUTPUT (PNG or JPEG in, recognised by its bytes; the output's format by its \
        extension .png/.jpg/.jpeg or --format). Inputs are turned upright by their EXIF orientation unless \
        --no-autorotate. A batch: filterrun RECIPE INPUT... OUTPUT_DIR, where each INPUT is an image, a directory of \
        .png/.jpg/.jpeg files, or - for paths read from stdin; outputs mirror the inputs' names (their extension \
        changes only with --format), and existing outputs are skipped (so a stopped batch resumes) unless --force.
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
    // Numeric options are read as text (so "-1" is a value, not an option) and checked by `NumericOption`.
    @Option(parsing: .unconditional, help: "Output depth, 8 or 16 (default: the input's).") var depth: String?
    @Option(parsing: .unconditional, help: "PNG zlib level 0-9 (default 5; 6 is libpng's default), compressed on every core.") var compression: String?
    @Option(help: "PNG row filter: none, sub, up, average, paeth, all (default all: libpng's per-row choice).") var filter: String?
    @Option(help: "Output format: png or jpeg (default: the output's extension; in a batch, each input's).") var format: String?
    @Option(parsing: .unconditional, help: "JPEG quality 1-100 (default 90).") var quality: String?
    @Option(help: "JPEG chroma subsampling: 444, 422 or 420 (default 444 at quality 90 and above, 420 below).")
    var subsampling: String?
    @Flag(help: "JPEG: write a progressive file.") var progressive = false
    @Flag(help: "JPEG: fit the Huffman tables to the image (a few percent smaller, a little slower).") var optimizeCoding = false
    @Option(help: "JPEG: colour transparent pixels are flattened onto: white (default), black, #rrggbb or r,g,b in 0-1.")
    var background: String?
    @Flag(help: "Keep inputs as stored instead of turning them upright by their EXIF orientation.") var noAutorotate = false
    @Option(help: "Output colour profile: srgb (default: converted to sRGB and tagged so), keep (the main input's profile, embedded), or an .icc file.")
    var profile: String?
    @Flag(help: "Read every input as sRGB, ignoring embedded ICC profiles and PNG gAMA/cHRM.") var ignoreProfiles = false
    @Option(parsing: .unconditional, help: "Refuse images with more pixels than this (default 2^28).") var maxPixels: String?
    @Option(parsing: .unconditional, help: "Refuse work needing more bytes held at once than this: interlaced images decoded whole, graphs whose strips add up (default 1 GiB).")
    var maxMemory: String?
    @Option(parsing: .unconditional, help: "Refuse renders costing more pixel-taps (pixels × kernel taps over the graph) than this, e.g. 1e11, or 'none' (default 4e10).")
    var maxWork: String?
    @Option(help: "Damage in an input that stops its decoding: none, truncated, error (default: truncation and corrupt data) or warning (any irregularity). Damage let pass is named in a warning.")
    var failOn: FailOn = .default
    @Flag(help: "Replace existing outputs (regular files only; their mode is kept).") var force = false
    @Flag(help: "Batch: include PNGs in subdirectories.") var recursive = false
    @Option(parsing: .unconditional, help: "Batch: files rendered at once (default: the number of cores).") var jobs: String?
    @Flag(help: "Batch: no progress output.") var quiet = false
    @Option(parsing: .unconditional, help: "Batch: render only part I/N of the files (I from 0), chosen by a stable hash of each output path, so N processes on N machines cover every file once; auto reads a Kubernetes Indexed Job or Slurm array (docs/scale-out).")
    var shard: String?
    @Option(help: "Batch: also write the --stats=json summary to this file (published atomically).") var statsFile: String?
    @Option(parsing: .unconditional, help: "Refuse recipe files larger than this many bytes (default 1 MiB).") var maxRecipeBytes: String?
    @Option(parsing: .unconditional, help: "Refuse recipes with more nodes than this (default 1000).") var maxNodes: String?

    func run() throws {}

    private func fail(_ code: Int32, _ message: String) -> Int32 {
        FileHandle.standardError.write(Data(("filterrun: " + message + "\n").utf8))
        return code
    }

    mutating func execute() -> Int32 {
        guard paths.count >= 2 else { return fail(2, "expected INPUT and OUTPUT after the recipe (see --help)") }
        guard let backendChoice = Backend(rawValue: backend) else { return fail(2, "--backend must be auto, cpu or vulkan") }
        let numbers: Numbers
        do { numbers = try Numbers(self) } catch { return fail(2, "\(error)") }
        let pngFilter = filter.map { PNGWriteOptions.Filter(rawValue: $0) } ?? PNGWriteOptions.default.filter
        guard let pngFilter else { return fail(2, "--filter must be one of none, sub, up, average, paeth, all") }
        var fileFormat: ImageFileFormat?
        if let format {
            guard let parsed = ImageFileFormat(rawValue: format == "jpg" ? "jpeg" : format) else {
                return fail(2, "--format must be png or jpeg, got \"\(format)\"")
            }
            fileFormat = parsed
        }
        var jpeg = JPEGWriteOptions(quality: numbers.quality ?? 90, progressive: progressive, optimizeCoding: optimizeCoding)
        if let subsampling {
            guard let parsed = Int(subsampling).flatMap(JPEGWriteOptions.Subsampling.init(rawValue:)) else {
                return fail(2, "--subsampling must be 444, 422 or 420, got \"\(subsampling)\"")
            }
            jpeg.subsampling = parsed
        }
        if let background {
            guard let color = RGBA(parsing: background) else {
                return fail(2, "--background must be white, black, #rrggbb or r,g,b with values in 0-1, got \"\(background)\"")
            }
            jpeg.background = color
        }

        var named = [String: String]()
        for entry in inputs {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { return fail(2, "--input expects NAME=PATH, got \(entry)") }
            named[parts[0]] = parts[1]
        }
        // `-` with one output file: stdin holds image bytes (told by their first bytes, as files are) or a list of
        // paths, one a line — read once, whole, within --max-memory.
        var stdinImage: Data?, stdinPaths: [String]?
        if input == "-" && self.paths.count == 2 && !Self.isDirectory(output) {
            let bytes: Data
            do { bytes = try Self.readStandardInput(limit: numbers.maxMemory) } catch { return fail(3, "-: \(error)") }
            if ImageFileFormat.looksLikeImage(Array(bytes.prefix(16))) { stdinImage = bytes }
            else { stdinPaths = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } }
        }
        // A batch: several inputs, paths on stdin, or a directory as the input or the output.
        let batch = paths.count > 2 || (input == "-" && stdinImage == nil) || Self.isDirectory(input) || Self.isDirectory(output)
        OutputFile.installCleanupHandlers(interrupt: !batch)
        var batchShard: BatchShard?
        if let shard {
            guard batch else { return fail(2, "--shard applies to batches (several inputs or a directory), not to one image") }
            do { batchShard = try BatchShard(parsing: shard) } catch { return fail(2, "\(error)") }
        }
        if statsFile != nil && !batch { return fail(2, "--stats-file applies to batches; for one image use --stats=json") }
        var paths = named.merging(["main": input]) { $1 }

        var parsed: Recipe
        do {
            let limits = RecipeLimits(maxBytes: numbers.maxRecipeBytes, maxNodes: numbers.maxNodes)
            parsed = try Recipe(contentsOfFile: recipe, limits: limits)
            for entry in overrides {
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                let target = parts.first?.split(separator: ".", maxSplits: 1).map(String.init) ?? []
                guard parts.count == 2, target.count == 2 else { return fail(2, "--set expects ID.PARAM=VALUE, got \(entry)") }
                try parsed.set(node: target[0], param: target[1], value: parts[1])
            }
        } catch let error as RecipeError {
            return fail(2, "\(recipe):\n" + error.issues.map { "  \($0)" }.joined(separator: "\n"))
        } catch {
            return fail(2, "\(recipe): \(error)")
        }

        var outputProfile = OutputProfile.sRGB
        switch profile {
        case nil, "srgb", "sRGB": break
        case "keep": outputProfile = .keepInput
        case let file?:
            do { outputProfile = .profile(try ColourProfile(contentsOfFile: file)) }
            catch { return fail(2, "--profile: \(error) (give srgb, keep or an ICC file)") }
        }
        let options = Renderer.Options(
            depth: numbers.depth,
            png: PNGWriteOptions(compressionLevel: numbers.compression ?? PNGWriteOptions.default.compressionLevel,
                                 filter: pngFilter),
            jpeg: jpeg, fileFormat: fileFormat, autorotate: !noAutorotate, colourManagement: !ignoreProfiles,
            outputProfile: outputProfile,
            maxPixels: numbers.maxPixels, optimize: !noOptimize, replaceExisting: force,
            maxMemory: numbers.maxMemory, maxWork: numbers.maxWork, failOn: failOn, timeDeviceSteps: stats != nil || statsFile != nil)
        let renderer = Renderer(backend: backendChoice, options: options)
        if batch {
            paths.removeValue(forKey: "main")
            return BatchMode(recipePath: recipe, recipe: parsed, renderer: renderer, extraInputs: paths,
                             jobs: numbers.jobs, force: force, quiet: quiet, stats: stats, statsFile: statsFile,
                             outputFormat: fileFormat, shard: batchShard, standardInput: stdinPaths)
                .run(inputs: Array(self.paths.dropLast()), outputDirectory: output, recursive: recursive)
        }
        do {
            if let explain {
                print(try renderer.explain(parsed, inputs: paths, verbose: explain == "verbose"))
            }
            var sources = paths.mapValues(ImageInput.file)
            if let stdinImage { sources["main"] = .encoded(stdinImage, name: "<stdin>") }
            let report = try renderer.render(parsed, sources: sources, output: output)
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
            if case .recipe(let e) = error {
                return fail(2, "\(recipe):\n" + e.issues.map { "  \($0)" }.joined(separator: "\n"))
            }
            return fail(error.exitCode, error.description)
        } catch {
            return fail(4, "\(error)")
        }
    }

    /// Standard input, whole; more than `limit` bytes is an error.
    struct StreamTooLong: Error, CustomStringConvertible { let description: String }

    static func readStandardInput(limit: Int) throws -> Data {
        var data = Data()
        while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 16), !chunk.isEmpty {
            data.append(chunk)
            if data.count > limit {
                throw StreamTooLong(description: "more than \(limit) bytes arrived, the memory limit (--max-memory) "
                                    + "for an input read whole")
            }
        }
        return data
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The numeric options, checked: each error names the option, what it got and the accepted range.
    struct Numbers {
        var depth: Int?
        var compression: Int?
        var quality: Int?
        var maxPixels = Renderer.Options.defaultMaxPixels
        var maxMemory = Renderer.Options.defaultMaxMemory
        var maxWork: Double? = WorkEstimate.defaultLimit
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        var maxRecipeBytes = RecipeLimits.default.maxBytes
        var maxNodes = RecipeLimits.default.maxNodes

        init(_ command: RunCommand) throws {
            depth = try command.depth.map { try NumericOption.integer("--depth", $0, allowed: [8, 16]) }
            compression = try command.compression.map { try NumericOption.integer("--compression", $0, in: 0...9) }
            quality = try command.quality.map { try NumericOption.integer("--quality", $0, in: 1...100) }
            maxPixels = try command.maxPixels.map { try NumericOption.integer("--max-pixels", $0, in: 1...(1 << 40)) } ?? maxPixels
            maxMemory = try command.maxMemory.map { try NumericOption.integer("--max-memory", $0, in: 1...(1 << 50)) } ?? maxMemory
            if let text = command.maxWork {
                maxWork = text == "none" ? nil : try NumericOption.real("--max-work", text, in: 1...1e18, or: "none")
            }
            jobs = try command.jobs.map { try NumericOption.integer("--jobs", $0, in: 1...1024) } ?? jobs
            maxRecipeBytes = try command.maxRecipeBytes.map { try NumericOption.integer("--max-recipe-bytes", $0, in: 1...(1 << 30)) } ?? maxRecipeBytes
            maxNodes = try command.maxNodes.map { try NumericOption.integer("--max-nodes", $0, in: 1...1_000_000) } ?? maxNodes
        }
    }
}

extension FailOn: ExpressibleByArgument {}
