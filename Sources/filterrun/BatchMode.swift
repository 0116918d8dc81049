import FilterCore
import FilterRecipe
import Foundation
import Synchronization

/// `filterrun RECIPE INPUT... OUTPUT_DIR`: the batch front end. Progress on stderr (a bar on a terminal, a line
/// every few seconds otherwise, nothing with --quiet); the first Ctrl-C lets the files in progress finish and stops,
/// a second one exits at once (outputs are written atomically, so no partial file is left under an output name).
struct BatchMode {
    let recipePath: String
    let recipe: Recipe
    let renderer: Renderer
    let extraInputs: [String: String]
    let jobs: Int
    let force: Bool
    let quiet: Bool
    let stats: String?
    let statsFile: String?
    let outputFormat: ImageFileFormat?
    let shard: BatchShard?
    /// The paths `-` stands for, when the caller read stdin already.
    var standardInput: [String]? = nil
    /// `--frames all`: animations (GIF, WebP, AVIF sequences, JPEG XL) written as WebP, GIF, AVIF or JPEG XL are rendered
    /// frame by frame.
    var allFrames = false
    /// `--output-name`: outputs named by a template.
    var nameTemplate: String? = nil

    func run(inputs: [String], outputDirectory: String, recursive: Bool) -> Int32 {
        let list: [BatchJob]
        do {
            list = try BatchJob.list(inputs: inputs, outputDirectory: outputDirectory, recursive: recursive,
                                     outputFormat: outputFormat, nameTemplate: nameTemplate) {
                if let standardInput { return standardInput }
                var paths = [String]()
                while let line = readLine() { paths.append(line.trimmingCharacters(in: .whitespaces)) }
                return paths
            }
        } catch {
            return report("filterrun: \(error)", code: (error as? RenderError)?.exitCode ?? 4)
        }
        // What the listing passed over is said, so a folder of TIFFs does not quietly render nothing.
        let passedOver = BatchJob.passedOver(inputs: inputs, recursive: recursive)
        let extensions = ImageFileFormat.allCases.flatMap(\.extensions).map { "." + $0 }.joined(separator: ", ")
        if !passedOver.isEmpty && !quiet {
            let shown = passedOver.prefix(10).joined(separator: ", ") + (passedOver.count > 10 ? ", … (\(passedOver.count - 10) more)" : "")
            FileHandle.standardError.write(Data(("filterrun: passed over \(passedOver.count) file\(passedOver.count == 1 ? "" : "s") "
                + "whose extension is not \(extensions): \(shown)\n").utf8))
        }
        if list.isEmpty {
            return report("filterrun: no \(ImageFileFormat.allCases.map(\.name).joined(separator: ", ")) files (\(extensions)) in "
                          + inputs.joined(separator: ", "), code: 3)
        }
        // Collisions are found over the whole listing, so every shard agrees: those inputs fail (named, each), the
        // others render.
        let collisions = BatchJob.collisions(in: list)
        if !collisions.isEmpty && !quiet {
            let lines = collisions.prefix(20).map { "  \($0.output) ← " + $0.inputs.joined(separator: ", ") }
            let more = collisions.count > 20 ? "\n  … and \(collisions.count - 20) more" : ""
            FileHandle.standardError.write(Data(("filterrun: \(collisions.count) output name\(collisions.count == 1 ? "" : "s") would be "
                + "written by more than one input; those inputs are not rendered (give --output-name '%s-%n' to tell them "
                + "apart):\n" + lines.joined(separator: "\n") + more + "\n").utf8))
        }
        do {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        } catch {
            return report("filterrun: cannot create the output directory \(outputDirectory): \(error.localizedDescription)", code: 4)
        }
        // Temporary files of a run that was killed (no process holds their lock) go before this run starts.
        let swept = OutputFiles.sweepStaleTemporaries(under: outputDirectory)
        if !swept.isEmpty && !quiet {
            FileHandle.standardError.write(Data("filterrun: removed \(swept.count) temporary file\(swept.count == 1 ? "" : "s") left by an interrupted run\n".utf8))
        }

        let listed = list.count
        let chosen = shard.map { shard in list.filter { shard.contains($0, outputDirectory: outputDirectory) } } ?? list
        if let shard, !quiet {
            FileHandle.standardError.write(Data("filterrun: shard \(shard): \(chosen.count) of \(listed) files\n".utf8))
        }

        // Renders one after another: each reuses the pages the last one freed.
        if chosen.count > 1 { ProcessMemory.keepForReuse() }
        let runner = BatchRunner(renderer: renderer, recipe: recipe, extraInputs: extraInputs, jobs: jobs, force: force,
                                 allFrames: allFrames)
        let interrupts = Self.handleInterrupts(runner)
        defer { interrupts.cancel() }
        let display = ProgressDisplay(quiet: quiet)
        let began = Date()
        // The clock the renders' stages are read on (CLOCK_MONOTONIC), so each file's stages start from here.
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let clock = Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
        // Each distinct warning once, as a single render prints it (a batch that falls back to the CPU says so).
        let warned = Mutex(Set<String>())
        let outcomes = runner.run(chosen) { progress, outcome in
            for warning in outcome.warnings where warned.withLock({ $0.insert(warning).inserted }) {
                display.message(warning)
            }
            if outcome.status == .failed, let error = outcome.error {
                let text = error.description
                display.message(text.hasPrefix(outcome.job.input) ? text : "\(outcome.job.input): \(text)")
            }
            display.update(progress)
        }
        display.finish()
        let seconds = Date().timeIntervalSince(began)
        let count = { (status: BatchRunner.Status) in outcomes.filter { $0.status == status }.count }
        let rendered = count(.rendered), failed = count(.failed), skipped = count(.skipped), notStarted = count(.cancelled)
        var summary = "\(rendered) rendered, \(skipped) skipped (output exists), \(failed) failed"
        if runner.isCancelled { summary += ", \(notStarted) not started (cancelled)" }
        summary += String(format: " in %.1f s (%.2f images/s)", seconds, seconds > 0 ? Double(rendered) / seconds : 0)
        if !quiet { FileHandle.standardError.write(Data(("filterrun: " + summary + "\n").utf8)) }
        let stageSeconds = outcomes.flatMap(\.stages).reduce(0) { $0 + $1.seconds }
        if stats == "text", stageSeconds > 0 {
            FileHandle.standardError.write(Data(String(format: "filterrun: the files' stages sum to %.2f s in %.2f s of "
                + "wall time (%.2f× overlapped)\n", stageSeconds, seconds, seconds > 0 ? stageSeconds / seconds : 0).utf8))
        }
        if stats == "json" || statsFile != nil {
            let report = BatchSummary(
                files: outcomes.map { outcome in
                    BatchSummary.File(input: outcome.job.input, output: outcome.job.output, status: outcome.status.rawValue,
                                      seconds: outcome.seconds, error: outcome.error?.description, backend: outcome.backend,
                                      stages: outcome.stages.map { .init(name: $0.name, start: $0.start - clock, seconds: $0.seconds) })
                },
                rendered: rendered, skipped: skipped, failed: failed, passedOver: passedOver, cancelled: runner.isCancelled,
                seconds: seconds, jobs: jobs, listed: listed, shard: shard.map { BatchSummary.Shard(index: $0.index, count: $0.count) },
                stageSeconds: stageSeconds)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(report) {
                if stats == "json" { FileHandle.standardError.write(data + Data("\n".utf8)) }
                if let statsFile {
                    do {
                        let directory = URL(fileURLWithPath: statsFile).deletingLastPathComponent()
                        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                        try OutputFiles.write(data + Data("\n".utf8), to: statsFile, replace: true)
                    } catch {
                        FileHandle.standardError.write(Data("filterrun: --stats-file: \(error)\n".utf8))
                        return 4
                    }
                }
            }
        }
        if runner.isCancelled { return 130 }
        return outcomes.compactMap(\.error).map(\.exitCode).max() ?? 0
    }

    private func report(_ message: String, code: Int32) -> Int32 {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return code
    }

    /// First Ctrl-C: stop starting files. Second: exit now.
    static func handleInterrupts(_ runner: BatchRunner) -> DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            if runner.isCancelled {
                OutputFiles.removeAllTemporaries()
                exit(130)
            }
            runner.cancel()
            FileHandle.standardError.write(Data("\nfilterrun: stopping after the files in progress (Ctrl-C again to quit now)\n".utf8))
        }
        source.resume()
        return source
    }
}

/// Batch progress on stderr: a redrawn bar on a terminal, a plain line every few seconds otherwise.
final class ProgressDisplay {
    let quiet: Bool
    let terminal = isatty(2) != 0
    private var lastLine = 0.0
    private var drawn = false

    init(quiet: Bool) { self.quiet = quiet }

    func update(_ p: BatchRunner.Progress) {
        guard !quiet else { return }
        let eta = p.remainingSeconds.map { String(format: "ETA %d:%02d", Int($0) / 60, Int($0) % 60) } ?? "ETA —"
        let text = String(format: "%d/%d files, %.1f images/s, %@%@", p.finished, p.total, p.rate, eta,
                          p.failed > 0 ? ", \(p.failed) failed" : "")
        if terminal {
            let width = 24, filled = p.total > 0 ? width * p.finished / p.total : width
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            FileHandle.standardError.write(Data("\r\u{1B}[K[\(bar)] \(text)".utf8))
            drawn = true
        } else if p.elapsed - lastLine >= 5 || p.finished == p.total {
            lastLine = p.elapsed
            FileHandle.standardError.write(Data("filterrun: \(text)\n".utf8))
        }
    }

    func message(_ text: String) {
        guard !quiet else { return }
        FileHandle.standardError.write(Data(((terminal && drawn ? "\r\u{1B}[K" : "") + text + "\n").utf8))
    }

    func finish() {
        if terminal && drawn && !quiet { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
