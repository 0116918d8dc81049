import FilterRecipe
/// A batch's `--stats=json` and `--stats-file` record: every file's outcome and the totals (docs/scale-out.md merges
/// the shards' records).
struct BatchSummary: Encodable {
    struct File: Encodable {
        let input: String, output: String, status: String
        let seconds: Double
        /// Absent when the file rendered.
        let error: String?
        /// The backend that rendered it, when it did.
        let backend: Backend?
        /// Its stages (decode, device, encode; or render on the CPU), each starting in seconds from the batch's
        /// start: the files' timelines side by side.
        let stages: [Stage]
    }

    struct Stage: Encodable {
        let name: String
        let start: Double
        let seconds: Double
    }

    struct Shard: Encodable {
        let index: Int, count: Int
    }

    let files: [File]
    let rendered: Int, skipped: Int, failed: Int
    /// Files in the input folders that are not images of a format read.
    let passedOver: [String]
    let cancelled: Bool
    let seconds: Double
    let jobs: Int
    /// Files listed before sharding.
    let listed: Int
    let shard: Shard?
    /// Every file's stages summed: more than `seconds` where files overlapped (one decoding while another's kernels
    /// ran and a third encoded).
    let stageSeconds: Double
}
