import Foundation
import TestSupport
import XCTest

/// filterbench's in-memory modes, as a first run on a new machine or GPU uses them.
extension FilterRunTests {
    var filterbench: String {
        URL(fileURLWithPath: FilterRunTests.binary).deletingLastPathComponent().appendingPathComponent("filterbench").path
    }

    /// One row per recipe with every figure present: the fractions of the floors are numbers, not blanks.
    func rows(_ stdout: String, recipes: [String]) -> [[String]] {
        recipes.compactMap { name in
            stdout.split(separator: "\n").first { $0.hasPrefix("| \(name) |") }
                .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        }
    }

    func testFilterbenchGPUPrintsTheDeviceFloorsAndEachRecipesShareOfThem() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: filterbench), "filterbench is not built beside the tests")
        try XCTSkipUnless(try hasVulkan(), "no Vulkan device")
        let r = try run(["--gpu", photo, "--runs", "1", vignette, recipes.appendingPathComponent("print-sharpen.json").path],
                        executable: filterbench)
        XCTAssertEqual(r.code, 0, r.stderr)
        let floors = r.stdout.split(separator: "\n").first { $0.hasPrefix("device copy ") } ?? ""
        XCTAssertNotNil(floors.range(of: #"device copy [0-9.]+ GB/s .* host→device [0-9.]+ GB/s .* device→host [0-9.]+ GB/s"#,
                                     options: .regularExpression), r.stdout)
        let table = rows(r.stdout, recipes: ["vignette", "print-sharpen"])
        XCTAssertEqual(table.count, 2, r.stdout)
        for row in table {
            XCTAssertEqual(row.count, 8, "\(row)")
            guard row.count == 8 else { continue }
            for share in [row[3], row[6]] {
                XCTAssertTrue(share.hasSuffix("%") && Double(share.dropLast().trimmingCharacters(in: .whitespaces)) != nil, "\(row)")
            }
            XCTAssertEqual(row[7], "1 / 1", "one upload and one download: \(row)")
        }
    }

    func testFilterbenchKernelsSetsEachRecipeBesideAMemoryCopy() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: filterbench), "filterbench is not built beside the tests")
        let r = try run(["--kernels", photo, "--runs", "1", vignette], executable: filterbench)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("memory copy of the working values"), r.stdout)
        let row = rows(r.stdout, recipes: ["vignette"]).first ?? []
        XCTAssertEqual(row.count, 4, r.stdout)
        XCTAssertNotNil(Double(row.count == 4 ? String(row[1].split(separator: " ").first ?? "") : ""), "\(row)")
        XCTAssertTrue(row.last?.hasSuffix("%") ?? false, "\(row)")
    }
}
