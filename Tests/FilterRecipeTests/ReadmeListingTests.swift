import Foundation
import TestSupport
import XCTest

/// Every Swift listing in README.md is compiled: it must appear, line for line (imports aside), in the Examples
/// target, which every build compiles.
final class ReadmeListingTests: XCTestCase {
    func testEveryListingIsCompiled() throws {
        let readme = try String(contentsOf: Fixtures.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let examples = try String(contentsOf: Fixtures.repository.appendingPathComponent("Sources/Examples/main.swift"), encoding: .utf8)
        let compiled = examples.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
        let parts = readme.components(separatedBy: "```swift\n").dropFirst()
        XCTAssertGreaterThanOrEqual(parts.count, 4)
        for part in parts {
            let listing = part.components(separatedBy: "```")[0].split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
                .joined(separator: "\n")
            XCTAssertTrue(compiled.contains(listing), "README listing not in Sources/Examples/main.swift:\n\(listing)")
        }
        // The first listing is also a package of its own (Examples/Consumer), built and run by scripts/test.sh.
        let consumer = try String(contentsOf: Fixtures.repository.appendingPathComponent("Examples/Consumer/Sources/Consumer/main.swift"),
                                  encoding: .utf8)
        XCTAssertTrue(consumer.hasSuffix(parts.first!.components(separatedBy: "```")[0]), "Examples/Consumer differs from the README's first listing")
    }
}
