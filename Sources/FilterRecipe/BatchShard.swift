import Foundation

/// One of `count` parts of a batch, so `count` processes (on as many machines) cover every file exactly once: a file
/// belongs to shard `FNV-1a-64(path) mod count`, where `path` is its output path relative to the output directory
/// (UTF-8 bytes). Membership depends on nothing but that path, so every shard agrees on it without talking to the
/// others, whatever order its listing came in, and a rerun of a shard finds the same files (and skips the ones
/// already written).
public struct BatchShard: Sendable, Equatable, CustomStringConvertible {
    /// From 0 to `count - 1`.
    public let index: Int
    public let count: Int

    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public init(index: Int, count: Int) throws {
        guard count >= 1 else { throw Invalid(description: "the shard count must be at least 1, got \(count)") }
        guard (0..<count).contains(index) else {
            throw Invalid(description: "the shard index must be from 0 to \(count - 1) for \(count) shards, got \(index)")
        }
        self.index = index
        self.count = count
    }

    public var description: String { "\(index)/\(count)" }

    /// `I/N`, or `auto`: the index and count a scheduler gives the process (see `fromScheduler`).
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if text == "auto" {
            self = try Self.fromScheduler(environment)
            return
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw Invalid(description: "a shard is I/N (e.g. 0/4: the first of four) or auto, got \"\(text)\"")
        }
        try self.init(index: index, count: count)
    }

    /// A Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`, with the Job's `completions` passed as
    /// `FILTERRUN_SHARD_COUNT`, since Kubernetes does not export it) or a Slurm job array (`SLURM_ARRAY_TASK_ID`
    /// and `SLURM_ARRAY_TASK_COUNT`; an array that starts above 0 or steps by more than 1 is mapped through
    /// `SLURM_ARRAY_TASK_MIN` and `SLURM_ARRAY_TASK_STEP`).
    public static func fromScheduler(_ environment: [String: String]) throws -> BatchShard {
        func number(_ name: String) throws -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Int(text) else { throw Invalid(description: "auto: \(name)=\"\(text)\" is not a whole number") }
            return value
        }
        if let index = try number("JOB_COMPLETION_INDEX") {
            guard let count = try number("FILTERRUN_SHARD_COUNT") else {
                throw Invalid(description: "auto: JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but "
                              + "FILTERRUN_SHARD_COUNT is not: set it to the Job's completions (see docs/scale-out)")
            }
            return try BatchShard(index: index, count: count)
        }
        if let id = try number("SLURM_ARRAY_TASK_ID") {
            guard let count = try number("SLURM_ARRAY_TASK_COUNT") else {
                throw Invalid(description: "auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
            }
            let first = try number("SLURM_ARRAY_TASK_MIN") ?? 0, step = max(1, try number("SLURM_ARRAY_TASK_STEP") ?? 1)
            // Checked arithmetic: the environment may hold any integer.
            let offset = id.subtractingReportingOverflow(first)
            guard !offset.overflow, offset.partialValue >= 0 else {
                throw Invalid(description: "auto: SLURM_ARRAY_TASK_ID \(id) is below the array's first task "
                              + "SLURM_ARRAY_TASK_MIN \(first), or too far from it")
            }
            guard offset.partialValue % step == 0 else {
                throw Invalid(description: "auto: SLURM_ARRAY_TASK_ID \(id) is not on the array's grid (min \(first), step \(step))")
            }
            return try BatchShard(index: offset.partialValue / step, count: count)
        }
        throw Invalid(description: "auto: no scheduler found (neither JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID "
                      + "is set); give I/N instead")
    }

    /// Whether the file written to `relativePath` (relative to the batch's output directory) is this shard's.
    public func contains(relativePath: String) -> Bool {
        Int(Self.hash(relativePath) % UInt64(count)) == index
    }

    /// Whether `job` is this shard's, its output path taken relative to `outputDirectory`.
    public func contains(_ job: BatchJob, outputDirectory: String) -> Bool {
        contains(relativePath: Self.relative(job.output, to: outputDirectory))
    }

    /// FNV-1a, 64-bit: stable across runs, machines and Swift versions (unlike `Hasher`).
    package static func hash(_ text: String) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
        return value
    }

    package static func relative(_ path: String, to directory: String) -> String {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        let inside = path.hasPrefix(prefix) ? path.dropFirst(prefix.count) : Substring(path)
        return String(inside.drop { $0 == "/" })
    }
}
