import FilterRecipe
import Foundation

/// One invocation of `filterrun RECIPE INPUT OUTPUT` (or a batch): the options checked, the recipe read, the
/// render run, and the exit code.
struct RenderRun {
    let options: RenderOptions
    init(_ options: RenderOptions) { self.options = options }

    private func fail(_ code: Int32, _ message: String) -> Int32 {
        FileHandle.standardError.write(Data(("filterrun: " + message + "\n").utf8))
        return code
    }

    private func recipeFailure(_ error: RecipeError) -> Int32 {
        fail(2, "\(options.recipe):\n" + error.issues.map { "  \($0)" }.joined(separator: "\n"))
    }

    func execute() -> Int32 {
        let o = options
        var paths = o.paths
        var listed: [String]?
        if let source = o.inputsFrom {
            do { listed = try Self.readPathList(source) } catch { return fail(3, "--inputs-from \(source): \(error)") }
        }
        guard paths.count >= 2 || (listed != nil && paths.count == 1) else {
            return fail(2, paths.isEmpty ? "expected INPUT and OUTPUT after the recipe (filterrun --help shows the usage)"
                             : "expected an OUTPUT after \(paths[0]) (filterrun --help shows the usage)")
        }
        let output = paths.removeLast()
        let numbers = Numbers(o)

        let fileFormat = o.format
        var renderOptions = Renderer.Options()
        do { try setEncoderOptions(&renderOptions, numbers, for: fileFormat ?? ImageFileFormat.from(extensionOf: output)) } catch { return fail(2, "\(error)") }
        let named: [String: String]
        do { named = try NamedInputs.parse(o.inputs) } catch { return fail(2, "\(error)") }
        // An option the output's format has no use for is named, never dropped in silence.
        if let written = fileFormat ?? ImageFileFormat.from(extensionOf: output), o.quality != nil, !written.takesQuality {
            let taking = ImageFileFormat.writtenCases.filter(\.takesQuality).map(\.name)
            FileHandle.standardError.write(Data(("warning: --quality applies to "
                + taking.dropLast().joined(separator: ", ") + " and " + (taking.last ?? "") + " outputs; "
                + "\(written.name) is written without it\n").utf8))
        }

        // A batch: a list of paths, several inputs, or a directory as the input or the output.
        let input = paths.first ?? ""
        // An output ending in / is a folder, made if missing, as cp and rsync read it.
        let batch = listed != nil || paths.count > 1 || (input != "-" && Self.isDirectory(input))
            || (output != "-" && (Self.isDirectory(output) || output.hasSuffix("/")))
        if batch, let dash = (paths + [output]).first(where: { $0 == "-" }) {
            return fail(2, "\(dash == output ? "OUTPUT" : "INPUT") -: standard \(dash == output ? "output" : "input") holds one "
                        + "image, not a batch; for a list of paths give --inputs-from FILE (or --inputs-from - to read it from standard input)")
        }
        if !batch, let fileFormat, output != "-", !o.forceFormat,
           let named = ImageFileFormat.from(extensionOf: output), named != fileFormat {
            return fail(2, "--format \(fileFormat.rawValue) contradicts the output's name \(output) (a \(named.name) "
                        + "extension); rename the output, or give --force-format to write \(fileFormat.name) under that name")
        }
        OutputFiles.installCleanupHandlers(interrupt: !batch)
        var batchShard: BatchShard?
        if let shard = o.shard {
            guard batch else { return fail(2, "--shard applies to batches (several inputs or a directory), not to one image") }
            batchShard = shard
        }
        if o.statsFile != nil && !batch { return fail(2, "--stats-file applies to batches; for one image use --stats=json") }

        var recipe: Recipe
        do {
            let limits = RecipeLimits(maxBytes: numbers.maxRecipeBytes, maxNodes: numbers.maxNodes)
            if o.recipe == RenderOptions.noRecipe {
                recipe = try Recipe(json: Data(#"{"version": 1, "steps": []}"#.utf8))  // `filterrun convert IN OUT`
            } else if [".cube", ".3dl"].contains(where: { o.recipe.lowercased().hasSuffix($0) }) {
                return fail(2, "\(o.recipe) is a look (a colour table), not a recipe: apply it with a recipe such as "
                    + "{\"version\": 1, \"steps\": [{\"op\": \"lut\", \"path\": \"\((o.recipe as NSString).lastPathComponent)\"}]} "
                    + "saved beside it")
            } else {
                recipe = try Recipe(contentsOfFile: o.recipe, limits: limits)
            }
            for entry in o.overrides {
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                let target = parts.first?.split(separator: ".", maxSplits: 1).map(String.init) ?? []
                guard parts.count == 2, target.count == 2 else { return fail(2, "--set expects ID.PARAM=VALUE, got \(entry)") }
                do { try recipe.set(node: target[0], param: target[1], value: parts[1]) }
                catch let error as RecipeError {
                    return fail(2, "--set " + error.issues.map(\.description).joined(separator: "; "))
                }
            }
        } catch let error as RecipeError {
            return recipeFailure(error)
        } catch {
            return fail(2, "\(o.recipe): \(error)")
        }

        var outputProfile = OutputProfile.sRGB
        switch o.profile {
        case nil, "srgb", "sRGB": break
        case "keep": outputProfile = .keepInput
        case let file?:
            do { outputProfile = .profile(try ColourProfile(contentsOfFile: file)) }
            catch { return fail(2, "--profile: \(error) (give srgb, keep or an ICC file)") }
        }
        renderOptions.depth = numbers.depth
        renderOptions.fileFormat = fileFormat
        renderOptions.autorotate = !o.noAutorotate
        renderOptions.colourManagement = !o.ignoreProfiles
        renderOptions.outputProfile = outputProfile
        renderOptions.metadata = o.keepMetadata ? (o.stripLocation ? .keepWithoutLocation : .keep) : .strip
        renderOptions.maxPixels = numbers.maxPixels
        renderOptions.optimize = !o.noOptimize
        renderOptions.replaceExisting = o.force
        renderOptions.maxMemory = numbers.maxMemory
        renderOptions.maxWork = numbers.maxWork
        renderOptions.failOn = o.failOn
        renderOptions.timeDeviceSteps = o.stats != nil || o.statsFile != nil
        renderOptions.page = numbers.page
        renderOptions.fidelity = o.fidelity
        let renderer = Renderer(backend: o.backend, options: renderOptions)
        if o.verbose, let reason = try? renderer.resolveBackend(verbose: true).warning {
            FileHandle.standardError.write(Data((reason + "\n").utf8))
        }
        if batch {
            return BatchMode(recipePath: o.recipe, recipe: recipe, renderer: renderer, extraInputs: named,
                             jobs: numbers.jobs, force: o.force, quiet: o.quiet, stats: o.stats?.rawValue,
                             statsFile: o.statsFile, outputFormat: fileFormat, shard: batchShard, standardInput: listed,
                             allFrames: o.frames == .all, nameTemplate: o.outputName)
                // Listed paths are files, each reported on its own when missing (the library's "-" entry).
                .run(inputs: paths + (listed != nil ? ["-"] : []), outputDirectory: output, recursive: o.recursive)
        }
        return renderOne(recipe, renderer: renderer, input: input, output: output, named: named, numbers: numbers)
    }

    /// One image, from a file or standard input, to a file or standard output.
    private func renderOne(_ recipe: Recipe, renderer: Renderer, input: String, output: String,
                           named: [String: String], numbers: Numbers) -> Int32 {
        var sources = named.mapValues(ImageInput.file)
        if input == "-" {
            do { sources["main"] = .encoded(try Self.readStandardInput(limit: numbers.maxMemory), name: "<stdin>") }
            catch { return fail(3, "-: \(error)") }
        } else {
            sources["main"] = .file(input)
        }
        var createdDirectories = [String]()
        do {
            if let explain = options.explain {
                print(try renderer.explain(recipe, sources: sources, verbose: explain == .verbose))
            }
            if options.frames == .all, let main = sources["main"], main.rendersAsFrames {
                guard output != "-" else {
                    return fail(2, "OUTPUT -: animations are written to a file (an animated WebP, GIF, AVIF or JPEG XL); give its name")
                }
                createdDirectories = try Self.createMissingDirectories(for: output)
                let animation = try renderer.renderAnimation(recipe, sources: sources, output: output)
                for warning in animation.warnings { FileHandle.standardError.write(Data((warning + "\n").utf8)) }
                if options.stats != nil { FileHandle.standardError.write(Data(("animation: \(animation)\n").utf8)) }
                return 0
            }
            let report: RenderReport
            if output == "-" {
                guard let format = renderer.options.fileFormat else {
                    return fail(2, "OUTPUT -: give --format \(ImageFileFormat.writtenCases.map(\.rawValue).joined(separator: "|")) "
                                + "for standard output (it has no extension to tell the format by)")
                }
                guard isatty(1) == 0 else {
                    return fail(2, "OUTPUT -: standard output is a terminal; redirect it to a file or a pipe (… > out.\(format.extensions[0]))")
                }
                let (data, rendered) = try renderer.render(recipe, sources: sources, as: format)
                FileHandle.standardOutput.write(data)
                report = rendered
            } else {
                createdDirectories = try Self.createMissingDirectories(for: output)
                report = try renderer.render(recipe, sources: sources, output: output)
            }
            for warning in report.warnings { FileHandle.standardError.write(Data((warning + "\n").utf8)) }
            if options.verbose, options.stats == nil, let choice = report.backendChoice {
                FileHandle.standardError.write(Data(("note: " + choice + "\n").utf8))
            }
            if let stats = options.stats {
                let text = stats == .json ? String(decoding: try report.jsonData(), as: UTF8.self) : report.text
                FileHandle.standardError.write(Data((text + "\n").utf8))
            }
            return 0
        } catch {
            // Directories made for an output that was never written go too.
            for directory in createdDirectories.reversed() { rmdir(directory) }
            if case RenderError.recipe(let e) = error { return recipeFailure(e) }
            if let error = error as? RenderError { return fail(error.exitCode, error.description) }
            return fail(4, "\(error)")
        }
    }

    /// The output's missing parent directories, created (as a batch creates its output directory); the ones made,
    /// outermost first.
    static func createMissingDirectories(for output: String) throws -> [String] {
        // Absolute paths through URL: NSString's path editing traps on some relative paths ("a/b" → "a" → …).
        var missing = [String]()
        var directory = URL(fileURLWithPath: output).standardizedFileURL.deletingLastPathComponent()
        while directory.path != "/" && !FileManager.default.fileExists(atPath: directory.path) {
            missing.append(directory.path)
            directory = directory.deletingLastPathComponent()
        }
        for path in missing.reversed() {
            do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }
            catch {
                for made in missing.reversed().prefix(while: { $0 != path }).reversed() { rmdir(made) }
                throw RenderError.output(OutputError(.notWritable, path: output,
                                                     "cannot create the directory \(path): \(error.localizedDescription)"))
            }
        }
        return missing.reversed()
    }

    /// The encoders' settings from the options; `target` (the output's format, when known) decides the range of
    /// the options formats share (--effort: WebP 0-6, AVIF and GIF 0-9, JPEG XL 1-9).
    /// Each format's writer options from the flags (a flag a format has no use for leaves it as it is).
    private func setEncoderOptions(_ options: inout Renderer.Options, _ numbers: Numbers, for target: ImageFileFormat?) throws {
        let o = self.options
        // --effort's range is the output format's (validate() checked the widest, 0-9).
        let range = target?.effortRange ?? 0...6
        if let effort = o.effort, !range.contains(effort) {
            throw OptionProblem(description: "--effort must be a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(effort)\"")
        }
        let effort = o.effort
        options.png.compressionLevel = numbers.compression ?? options.png.compressionLevel
        options.png.filter = o.filter ?? options.png.filter
        options.jpeg = JPEGWriteOptions(quality: numbers.quality ?? 90, progressive: o.progressive, optimizeCoding: o.optimizeCoding)
        options.jpeg.subsampling = o.subsampling ?? options.jpeg.subsampling
        options.jpeg.background = o.background ?? options.jpeg.background
        options.webp = WebPWriteOptions(quality: numbers.quality ?? WebPWriteOptions.default.quality, lossless: o.lossless)
        options.webp.nearLossless = o.nearLossless ?? options.webp.nearLossless
        options.webp.effort = effort ?? options.webp.effort
        options.webp.alphaQuality = o.alphaQuality ?? options.webp.alphaQuality
        options.tiff.compression = o.tiffCompression ?? options.tiff.compression
        options.avif = AVIFWriteOptions(quality: numbers.quality ?? AVIFWriteOptions.default.quality, lossless: o.lossless)
        options.avif.effort = effort ?? options.avif.effort
        options.avif.bitDepth = o.bitDepth ?? options.avif.bitDepth
        if let chosen = options.jpeg.subsampling { options.avif.chroma = String(chosen.rawValue) }
        options.jxl = JXLWriteOptions(quality: numbers.quality ?? JXLWriteOptions.default.quality, lossless: o.lossless)
        options.jxl.effort = effort ?? options.jxl.effort
        options.gif.effort = effort ?? options.gif.effort
        options.gif.colours = o.colours ?? options.gif.colours
        options.gif.dither = o.dither ?? options.gif.dither
    }

    /// Paths one a line from `source` (a file, or - for standard input); blank lines are skipped.
    static func readPathList(_ source: String) throws -> [String] {
        let text: String
        if source == "-" {
            var lines = [String]()
            while let line = readLine() { lines.append(line) }
            text = lines.joined(separator: "\n")
        } else {
            text = try String(contentsOfFile: source, encoding: .utf8)
        }
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
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
        if data.isEmpty { throw StreamTooLong(description: "no bytes arrived on standard input (pipe an image into it)") }
        return data
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The numeric options with their defaults (`RenderOptions.validate()` has checked their ranges).
    struct Numbers {
        var depth: Int?
        var compression: Int?
        var quality: Int?
        var maxPixels = Renderer.Options.defaultMaxPixels
        var maxMemory = Renderer.Options.defaultMaxMemory
        var maxWork: Double? = Renderer.Options.defaultMaxWork
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        var maxRecipeBytes = RecipeLimits.default.maxBytes
        var maxNodes = RecipeLimits.default.maxNodes
        var page = 0

        init(_ o: RenderOptions) {
            depth = o.depth
            compression = o.compression
            quality = o.quality
            maxPixels = o.maxPixels ?? maxPixels
            maxMemory = o.maxMemory ?? maxMemory
            if let limit = o.maxWork { maxWork = limit.limit }
            jobs = o.jobs ?? jobs
            maxRecipeBytes = o.maxRecipeBytes ?? maxRecipeBytes
            maxNodes = o.maxNodes ?? maxNodes
            page = o.page ?? page
        }
    }

    /// A combination of options the parser cannot judge alone (it depends on the output's format).
    struct OptionProblem: Error, CustomStringConvertible { let description: String }
}
