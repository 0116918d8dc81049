import Foundation
import TestSupport
import XCTest

/// A batch split over processes, as over machines: `--shard I/N` processes run at once over one tree into one
/// output directory, and between them render every file exactly once; reruns skip; `auto` reads the schedulers.
extension FilterRunTests {
    private func statsFile(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
    }

    private func rendered(_ stats: [String: Any]) -> [String] {
        ((stats["files"] as? [[String: Any]]) ?? []).filter { $0["status"] as? String == "rendered" }
            .compactMap { $0["output"] as? String }
    }

    func testShardsCoverEveryFileOnceAndResume() throws {
        let input = try batchInput(count: 12)
        let out = path("out")
        let count = 3
        // The shards run at the same time, each a process of its own.
        let processes = (0..<count).map { index in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: FilterRunTests.binary)
            process.arguments = [vignette, input.path, out, "--recursive", "--backend", "cpu", "--jobs", "1", "--quiet",
                                 "--shard", "\(index)/\(count)", "--stats-file", path("shard\(index).json")]
            return process
        }
        for process in processes { try process.run() }
        for process in processes { process.waitUntilExit() }
        XCTAssertEqual(processes.map(\.terminationStatus), [0, 0, 0])
        let stats = try (0..<count).map { try statsFile(path("shard\($0).json")) }
        let outputs = stats.flatMap(rendered)
        XCTAssertEqual(outputs.count, 12, "no file rendered twice: \(outputs.sorted())")
        XCTAssertEqual(Set(outputs).count, 12)
        let expected = (0..<12).map { out + "/" + ($0 % 3 == 0 ? "sub/p\($0).png" : "p\($0).png") }
        XCTAssertEqual(Set(outputs), Set(expected), "every file rendered")
        for file in expected { XCTAssertTrue(FileManager.default.fileExists(atPath: file), file) }
        for (index, shard) in stats.enumerated() {
            XCTAssertEqual(shard["listed"] as? Int, 12)
            XCTAssertEqual((shard["shard"] as? [String: Int]) ?? [:], ["index": index, "count": count])
        }

        // docs/scale-out/merge-stats.py adds the summaries up and finds the listing covered.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") {
            let script = Fixtures.repository.appendingPathComponent("docs/scale-out/merge-stats.py").path
            let merged = try run([script] + (0..<count).map { path("shard\($0).json") }, executable: "/usr/bin/python3")
            XCTAssertEqual(merged.code, 0, merged.stdout + merged.stderr)
            let totals = try JSONSerialization.jsonObject(with: Data(merged.stdout.utf8)) as? [String: Any] ?? [:]
            XCTAssertEqual(totals["covered"] as? Int, 12)
            XCTAssertEqual(totals["rendered"] as? Int, 12)
            let partial = try run([script, path("shard0.json"), path("shard2.json")], executable: "/usr/bin/python3")
            XCTAssertEqual(partial.code, 1, "a missing shard is reported: \(partial.stdout)")
        }

        // A shard run again finds its files written and skips them all.
        let again = try run([vignette, input.path, out, "--recursive", "--backend", "cpu", "--shard", "1/3", "--stats=json"])
        let json = try statsJSON(again.stderr)
        XCTAssertEqual(json["rendered"] as? Int, 0)
        XCTAssertEqual(json["skipped"] as? Int, rendered(stats[1]).count)

        // auto: a Kubernetes Indexed Job's index with the documented count, and a Slurm array starting at 1.
        let kubernetes = try run([vignette, input.path, out, "--recursive", "--backend", "cpu", "--shard", "auto", "--stats=json"],
                                 environment: ["JOB_COMPLETION_INDEX": "0", "FILTERRUN_SHARD_COUNT": "3"])
        XCTAssertEqual(try statsJSON(kubernetes.stderr)["skipped"] as? Int, rendered(stats[0]).count, kubernetes.stderr)
        let slurm = try run([vignette, input.path, out, "--recursive", "--backend", "cpu", "--shard", "auto", "--stats=json"],
                            environment: ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3"])
        XCTAssertEqual(try statsJSON(slurm.stderr)["skipped"] as? Int, rendered(stats[2]).count, slurm.stderr)
    }

    func testShardMistakesAreUsageErrors() throws {
        let input = try batchInput(count: 2)
        let bad = try run([vignette, input.path, path("out"), "--shard", "3/3"])
        XCTAssertEqual(bad.code, 2)
        XCTAssertTrue(bad.stderr.contains("from 0 to 2"), bad.stderr)
        let single = try run([vignette, photo, path("one.png"), "--shard", "0/2"])
        XCTAssertEqual(single.code, 2)
        XCTAssertTrue(single.stderr.contains("applies to batches"), single.stderr)
        let environment = ProcessInfo.processInfo.environment
        if environment["JOB_COMPLETION_INDEX"] == nil && environment["SLURM_ARRAY_TASK_ID"] == nil {
            let auto = try run([vignette, input.path, path("out"), "--shard", "auto"])
            XCTAssertEqual(auto.code, 2)
            XCTAssertTrue(auto.stderr.contains("no scheduler found"), auto.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out/p1.png")), "nothing rendered after a usage error")
    }
}
