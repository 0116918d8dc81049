import FilterCore
import Foundation
import Synchronization
import PNGCodec

/// One file of a batch: where it comes from and where its result goes.
public struct BatchJob: Sendable, Equatable {
    public var input: String
    public var output: String
    public init(input: String, output: String) {
        self.input = input
        self.output = output
    }

    /// Jobs for `inputs` (image files, directories of .png/.jpg/.jpeg files, or "-" for paths read from
    /// `standardInput`) writing into `outputDirectory`: a directory's files keep their relative paths
    /// (subdirectories with `recursive`), single files keep their names; with `outputFormat`, names take its
    /// extension. `nameTemplate` names each output instead (vips's `-o tn_%s`): `%s` is the input's name without its
    /// extension, `%n` its place in the listing from 1, `%%` a percent sign; a template with an extension gives the
    /// output's format, one without keeps the input's (or `outputFormat`'s).
    public static func list(inputs: [String], outputDirectory: String, recursive: Bool,
                            outputFormat: ImageFileFormat? = nil, nameTemplate: String? = nil,
                            standardInput: () -> [String] = { [] }) throws -> [BatchJob] {
        var jobs = [BatchJob]()
        var outputDirectory = outputDirectory
        while outputDirectory.count > 1 && outputDirectory.hasSuffix("/") { outputDirectory.removeLast() }
        func output(_ relative: String) -> String {
            let relative = nameTemplate.map { named(relative, template: $0, place: jobs.count + 1) } ?? relative
            guard let format = outputFormat, ImageFileFormat.from(extensionOf: relative) != format else {
                return outputDirectory + "/" + relative
            }
            return outputDirectory + "/" + (relative as NSString).deletingPathExtension + "." + format.extensions[0]
        }
        let manager = FileManager.default
        for input in inputs {
            if input == "-" {
                for path in standardInput() where !path.isEmpty {
                    jobs.append(BatchJob(input: path, output: output(URL(fileURLWithPath: path).lastPathComponent)))
                }
                continue
            }
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: input, isDirectory: &isDirectory) else {
                throw RenderError.input(.init(kind: .missing, path: input, message: "no such file or directory"))
            }
            if !isDirectory.boolValue {
                jobs.append(BatchJob(input: input, output: output(URL(fileURLWithPath: input).lastPathComponent)))
                continue
            }
            let names = recursive ? (manager.subpaths(atPath: input) ?? []) : try manager.contentsOfDirectory(atPath: input)
            for name in names.sorted() where ImageFileFormat.from(extensionOf: name) != nil {
                var isSubdirectory: ObjCBool = false
                _ = manager.fileExists(atPath: input + "/" + name, isDirectory: &isSubdirectory)
                if !isSubdirectory.boolValue {
                    jobs.append(BatchJob(input: input + "/" + name, output: output(name)))
                }
            }
        }
        return jobs
    }

    /// `relative` (a name, perhaps under subfolders) renamed by `template`, its folders kept.
    static func named(_ relative: String, template: String, place: Int) -> String {
        let folder = (relative as NSString).deletingLastPathComponent
        let file = (relative as NSString).lastPathComponent
        let stem = (file as NSString).deletingPathExtension, ext = (file as NSString).pathExtension
        var name = "", characters = Array(template), i = 0
        while i < characters.count {
            if characters[i] == "%", i + 1 < characters.count {
                switch characters[i + 1] {
                case "s": name += stem; i += 2; continue
                case "n": name += String(place); i += 2; continue
                case "%": name += "%"; i += 2; continue
                default: break
                }
            }
            name.append(characters[i])
            i += 1
        }
        if ImageFileFormat.from(extensionOf: name) == nil, !ext.isEmpty { name += "." + ext }
        return folder.isEmpty ? name : folder + "/" + name
    }

    /// Files in the input directories that `list` passes over because their extension names no format read here
    /// (hidden files aside), with the directory they were found in: a batch says what it did not render.
    public static func passedOver(inputs: [String], recursive: Bool) -> [String] {
        let manager = FileManager.default
        var skipped = [String]()
        for input in inputs where input != "-" {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            let names = (recursive ? manager.subpaths(atPath: input) : try? manager.contentsOfDirectory(atPath: input)) ?? []
            for name in names.sorted() where ImageFileFormat.from(extensionOf: name) == nil
                && !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                var isSubdirectory: ObjCBool = false
                _ = manager.fileExists(atPath: input + "/" + name, isDirectory: &isSubdirectory)
                if !isSubdirectory.boolValue { skipped.append(input + "/" + name) }
            }
        }
        return skipped
    }

    /// Outputs that more than one job would write, with those jobs' inputs (compared as paths after `..` and `.`
    /// are resolved), in the order first met.
    public static func collisions(in jobs: [BatchJob]) -> [(output: String, inputs: [String])] {
        var order = [String](), inputs = [String: [String]]()
        for job in jobs {
            let key = URL(fileURLWithPath: job.output).standardizedFileURL.path
            if inputs[key] == nil { order.append(key) }
            inputs[key, default: []].append(job.input)
        }
        return order.compactMap { key in inputs[key]!.count > 1 ? (key, inputs[key]!) : nil }
    }
}

/// Runs one recipe over many files: `jobs` workers each stream a file from decoder to encoder (so the decoding of
/// some files overlaps the filtering and encoding of others, and memory is bounded by the worker count, not the
/// file count). The recipe is parsed and validated once; compiled kernels are shared through the process caches.
/// A failed file is reported and the rest go on. Safe to cancel from another thread: files in progress finish
/// (outputs are written atomically, so none is ever partial) and no new file starts.
public final class BatchRunner: Sendable {
    public enum Status: String, Sendable { case rendered, skipped, failed, cancelled }

    public struct Outcome: Sendable {
        public var job: BatchJob
        public var status: Status
        public var seconds: Double
        public var error: RenderError?
        public var backend: Backend?
        /// The render's warnings and notes (a fallback from Vulkan to the CPU, a JPEG flattening alpha…).
        public var warnings: [String] = []
        /// The render's stages on the process's monotonic clock (`RenderReport.stages`): laid side by side, they show
        /// how the batch's files overlapped.
        public var stages: [RenderStats.Stage] = []
    }

    public struct Progress: Sendable {
        public var finished: Int
        public var total: Int
        public var failed: Int
        public var skipped: Int
        public var elapsed: Double
        /// Files rendered per second so far.
        public var rate: Double { elapsed > 0 ? Double(finished - skipped) / elapsed : 0 }
        public var remainingSeconds: Double? {
            rate > 0 ? Double(total - finished) / rate : nil
        }
    }

    let renderer: Renderer
    let recipe: Recipe
    let extraInputs: [String: String]
    let workers: Int
    let force: Bool
    let allFrames: Bool
    private let cancelled = Mutex(false)

    /// With `allFrames`, an animated GIF or WebP input whose output is a WebP is rendered frame by frame
    /// (`Renderer.renderAnimation`); other inputs, and other outputs, render as always (an animation's first frame,
    /// with a note).
    public init(renderer: Renderer, recipe: Recipe, extraInputs: [String: String] = [:],
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount, force: Bool = false, allFrames: Bool = false) {
        var renderer = renderer
        renderer.options.replaceExisting = renderer.options.replaceExisting || force
        self.renderer = renderer
        self.recipe = recipe
        self.extraInputs = extraInputs
        workers = max(1, jobs)
        self.force = force
        self.allFrames = allFrames
    }

    /// Stops starting new files; those in progress finish.
    public func cancel() { cancelled.withLock { $0 = true } }
    public var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Runs every job; `progress` is called (from worker threads, one call at a time) after each file. Jobs whose
    /// output another job also writes all fail without rendering (`BatchJob.collisions` finds them beforehand).
    public func run(_ jobs: [BatchJob],
                    progress: @escaping @Sendable (Progress, Outcome) -> Void = { _, _ in }) -> [Outcome] {
        /// What the workers share; the mutex guards it and makes `progress` calls one at a time.
        struct State {
            var outcomes: [Outcome]
            var next = 0, finished = 0, failed = 0, skipped = 0
        }
        let state = Mutex(State(outcomes: jobs.map { Outcome(job: $0, status: .cancelled, seconds: 0) }))
        let colliding = Dictionary(BatchJob.collisions(in: jobs).map { ($0.output, $0.inputs) }, uniquingKeysWith: { a, _ in a })
        let began = monotonicSeconds()
        // `auto` shares a device's opening among the batch's files when it prices each render.
        let sharing = { var renderer = renderer; renderer.sharedRenders = max(1, jobs.count); return renderer }()
        DispatchQueue.concurrentPerform(iterations: min(workers, max(1, jobs.count))) { _ in
            while true {
                let cancelled = isCancelled
                let index: Int? = state.withLock { state in
                    guard !cancelled, state.next < jobs.count else { return nil }
                    state.next += 1
                    return state.next - 1
                }
                guard let index else { return }
                let outcome: Outcome
                if let others = colliding[URL(fileURLWithPath: jobs[index].output).standardizedFileURL.path] {
                    outcome = Outcome(job: jobs[index], status: .failed, seconds: 0, error: .output(OutputError(
                        .exists, path: jobs[index].output, "would be written by each of " + others.joined(separator: ", "))))
                } else {
                    outcome = render(jobs[index], with: sharing)
                }
                state.withLock { state in
                    state.outcomes[index] = outcome
                    state.finished += 1
                    if outcome.status == .failed { state.failed += 1 }
                    if outcome.status == .skipped { state.skipped += 1 }
                    progress(Progress(finished: state.finished, total: jobs.count, failed: state.failed,
                                      skipped: state.skipped, elapsed: monotonicSeconds() - began), outcome)
                }
            }
        }
        return state.withLock { $0.outcomes }
    }

    private func render(_ job: BatchJob, with renderer: Renderer) -> Outcome {
        let began = monotonicSeconds()
        var outcome = Outcome(job: job, status: .rendered, seconds: 0)
        let manager = FileManager.default
        var info = stat()
        if lstat(job.output, &info) == 0 && !force {
            outcome.status = .skipped
            return outcome
        }
        // A batch reads regular files only: a FIFO would block it (or be read whole), a device never ends.
        if stat(job.input, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            outcome.status = .failed
            let kind = (info.st_mode & S_IFMT) == S_IFIFO ? "a FIFO" : "not a regular file"
            outcome.error = .input(.init(kind: .unreadable, path: FileText.escaped(job.input), message: "is \(kind); a batch "
                + "reads regular files only (give it alone, as the one input, to read it as a stream)"))
            outcome.seconds = monotonicSeconds() - began
            return outcome
        }
        do {
            try manager.createDirectory(at: URL(fileURLWithPath: job.output).deletingLastPathComponent(),
                                        withIntermediateDirectories: true)
            var inputs = extraInputs
            inputs[recipe.inputs.first ?? "main"] = job.input
            let outputFormat = renderer.options.fileFormat ?? ImageFileFormat.from(extensionOf: job.output)
            if allFrames, outputFormat?.writesAnimations == true, ImageInput.file(job.input).rendersAsFrames {
                outcome.warnings = try renderer.renderAnimation(recipe, inputs: inputs, output: job.output).warnings
            } else {
                let report = try renderer.render(recipe, inputs: inputs, output: job.output)
                outcome.backend = report.backend
                outcome.warnings = report.warnings
                outcome.stages = report.stages
            }
        } catch RenderError.output(let error) where error.kind == .exists && !force {
            outcome.status = .skipped  // it appeared while this file rendered; kept, as existing outputs are
        } catch let error as RenderError {
            outcome.status = .failed
            outcome.error = error
        } catch {
            outcome.status = .failed
            outcome.error = .render("\(job.output): \(error.localizedDescription)")
        }
        outcome.seconds = monotonicSeconds() - began
        return outcome
    }
}
