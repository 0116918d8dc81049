import FilterCore
import Foundation
import TestSupport
import XCTest

/// Every Swift listing in README.md is compiled: it must appear, line for line (imports aside), in the Examples
/// target, which every build compiles.
final class ReadmeListingTests: XCTestCase {
    func testEveryListingIsCompiled() throws {
        let readme = try String(contentsOf: Fixtures.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let compiled = try compiledListings()
        let parts = readme.components(separatedBy: "```swift\n").dropFirst()
        XCTAssertGreaterThanOrEqual(parts.count, 4)
        for part in parts {
            let listing = part.components(separatedBy: "```")[0].split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
                .joined(separator: "\n")
            XCTAssertTrue(compiled.contains(listing), "README listing not in Sources/Examples:\n\(listing)")
        }
        // The first listing is also a package of its own (Examples/Consumer), built and run by scripts/test.sh.
        let consumer = try String(contentsOf: Fixtures.repository.appendingPathComponent("Examples/Consumer/Sources/Consumer/main.swift"),
                                  encoding: .utf8)
        XCTAssertTrue(consumer.hasSuffix(parts.first!.components(separatedBy: "```")[0]), "Examples/Consumer differs from the README's first listing")
    }

    /// The README's catalogue table names every filter of the catalogue, in the row of its kind, and no other.
    func testTheCatalogueTableIsComplete() throws {
        let readme = try String(contentsOf: Fixtures.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "### The catalogue\n").dropFirst().first)
            .components(separatedBy: "\n## ")[0]
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains("`") }
        var named = [String: String]()
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            for name in cells[1].split(separator: " ") { named[name.trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[0] }
        }
        XCTAssertEqual(Set(named.keys), Set(FilterID.allCases.map(\.rawValue)))
        let kinds: [FilterSpec.Family: Set<String>] = [.colour: ["colour, per pixel"], .neighbourhood: ["neighbourhood", "local tone"],
                                                         .geometry: ["geometry"], .compositing: ["compositing"], .generator: ["generators"]]
        for id in FilterID.allCases {
            XCTAssertTrue(kinds[id.spec.family]?.contains(named[id.rawValue] ?? "") ?? false, "\(id) listed under \(named[id.rawValue] ?? "nothing")")
        }
    }

    /// The DocC articles' listings are compiled the same way.
    func testEveryDocCListingIsCompiled() throws {
        let catalog = Fixtures.repository.appendingPathComponent("Sources/FilterRecipe/FilterRecipe.docc")
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }
        XCTAssertGreaterThanOrEqual(articles.count, 7)
        let compiled = try compiledListings()
        var listings = 0
        for article in articles {
            let text = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
            for part in text.components(separatedBy: "```swift\n").dropFirst() {
                let listing = part.components(separatedBy: "```")[0].split(separator: "\n")
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
                    .joined(separator: "\n")
                XCTAssertTrue(compiled.contains(listing), "\(article) listing not in Sources/Examples:\n\(listing)")
                listings += 1
            }
        }
        XCTAssertGreaterThanOrEqual(listings, 8)
    }

    /// The Examples target's sources, each line trimmed.
    func compiledListings() throws -> String {
        let folder = Fixtures.repository.appendingPathComponent("Sources/Examples")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }.joined(separator: "\n")
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
    }
}
