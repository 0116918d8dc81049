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
}
