import FilterRecipe
import XCTest

/// The shard rule itself: a published hash, every path in exactly one shard, balanced, and the schedulers' variables.
final class BatchShardTests: XCTestCase {
    /// FNV-1a 64-bit test vectors from its authors' reference (isthe.com/chongo/tech/comp/fnv).
    func testHashIsFNV1a64() {
        XCTAssertEqual(BatchShard.hash(""), 0xcbf2_9ce4_8422_2325)
        XCTAssertEqual(BatchShard.hash("a"), 0xaf63_dc4c_8601_ec8c)
        XCTAssertEqual(BatchShard.hash("foobar"), 0x8594_4171_f739_67e8)
    }

    func testEveryPathIsInExactlyOneShardAndShardsAreBalanced() throws {
        let paths = (0..<12_000).map { "roll\($0 % 37)/IMG_\(String(format: "%05d", $0)).jpg" }
        for count in [1, 2, 7, 64] {
            let shards = try (0..<count).map { try BatchShard(index: $0, count: count) }
            var sizes = [Int](repeating: 0, count: count)
            for path in paths {
                let owners = shards.filter { $0.contains(relativePath: path) }
                XCTAssertEqual(owners.count, 1, path)
                sizes[owners[0].index] += 1
            }
            let mean = Double(paths.count) / Double(count)
            XCTAssertLessThan(Double(sizes.max()!) / mean, count == 64 ? 1.25 : 1.08, "\(count) shards: \(sizes)")
        }
    }

    func testMembershipUsesThePathInsideTheOutputDirectory() throws {
        let shard = try BatchShard(index: 1, count: 5)
        let job = BatchJob(input: "/photos/a/b.jpg", output: "/out/a/b.jpg")
        XCTAssertEqual(shard.contains(job, outputDirectory: "/out"), shard.contains(relativePath: "a/b.jpg"))
        XCTAssertEqual(shard.contains(job, outputDirectory: "/out/"), shard.contains(relativePath: "a/b.jpg"))
        XCTAssertEqual(BatchShard.relative("out//a/b.jpg", to: "out/"), "a/b.jpg")
    }

    func testParsing() throws {
        XCTAssertEqual(try BatchShard(parsing: "2/5", environment: [:]), try BatchShard(index: 2, count: 5))
        for bad in ["5/5", "-1/3", "0/0", "a/b", "1", "1/2/3", ""] {
            XCTAssertThrowsError(try BatchShard(parsing: bad, environment: [:]), bad)
        }
    }

    func testSchedulers() throws {
        XCTAssertEqual(try BatchShard(parsing: "auto", environment: ["JOB_COMPLETION_INDEX": "3", "FILTERRUN_SHARD_COUNT": "8"]),
                       try BatchShard(index: 3, count: 8))
        XCTAssertThrowsError(try BatchShard(parsing: "auto", environment: ["JOB_COMPLETION_INDEX": "3"])) {
            XCTAssertTrue("\($0)".contains("FILTERRUN_SHARD_COUNT"), "\($0)")
        }
        XCTAssertEqual(try BatchShard(parsing: "auto", environment: ["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "5"]),
                       try BatchShard(index: 4, count: 5))
        // --array=1-9:2 → ids 1, 3, 5, 7, 9.
        XCTAssertEqual(try BatchShard(parsing: "auto", environment: ["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_COUNT": "5",
                                                                     "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_STEP": "2"]),
                       try BatchShard(index: 3, count: 5))
        XCTAssertThrowsError(try BatchShard(parsing: "auto", environment: [:])) {
            XCTAssertTrue("\($0)".contains("give I/N instead"), "\($0)")
        }
        XCTAssertThrowsError(try BatchShard(parsing: "auto", environment: ["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "2"]))
    }

    /// Integers at the ends of Int's range in the environment are refused with a message, never an overflow trap.
    func testExtremeSchedulerIntegersAreRefused() {
        let max = String(Int.max), min = String(Int.min)
        for (id, first, step) in [(max, "-1", "1"), (min, "1", "1"), (max, min, "1"), (min, max, "3"), ("0", max, max),
                                  (max, "0", min), ("5", "7", "1")] {
            let environment = ["SLURM_ARRAY_TASK_ID": id, "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": first,
                               "SLURM_ARRAY_TASK_STEP": step]
            XCTAssertThrowsError(try BatchShard(parsing: "auto", environment: environment), "\(environment)") {
                XCTAssertTrue(!"\($0)".isEmpty && !"\($0)".contains("--"), "library words, not an option: \($0)")
            }
        }
        for count in [min, "0", "-3"] {
            XCTAssertThrowsError(try BatchShard(parsing: "auto", environment: ["JOB_COMPLETION_INDEX": max, "FILTERRUN_SHARD_COUNT": count]))
        }
    }
}
