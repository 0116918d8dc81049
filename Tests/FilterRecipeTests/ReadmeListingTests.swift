import FilterCore
import Foundation
import TestSupport
import XCTest

/// Every Swift listing in README.md and docs/ is compiled: it must appear, line for line (imports aside), in the
/// Examples target, which every build compiles.
final class ReadmeListingTests: XCTestCase {
    /// README.md, then every page of docs/ (by name).
    func documents() throws -> [(name: String, text: String)] {
        let docs = Fixtures.repository.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return try [("README.md", String(contentsOf: Fixtures.repository.appendingPathComponent("README.md"), encoding: .utf8))]
            + pages.map { ("docs/\($0)", try String(contentsOf: docs.appendingPathComponent($0), encoding: .utf8)) }
    }

    func testEveryListingIsCompiled() throws {
        let readme = try String(contentsOf: Fixtures.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let compiled = try compiledListings()
        let parts = try documents().flatMap { $0.text.components(separatedBy: "```swift\n").dropFirst() }
        XCTAssertGreaterThanOrEqual(parts.count, 5)
        for part in parts {
            let listing = part.components(separatedBy: "```")[0].split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
                .joined(separator: "\n")
            XCTAssertTrue(compiled.contains(listing), "README listing not in Sources/Examples:\n\(listing)")
        }
        // The first listing is also a package of its own (Examples/Consumer), built and run by scripts/test.sh.
        let consumer = try String(contentsOf: Fixtures.repository.appendingPathComponent("Examples/Consumer/Sources/Consumer/main.swift"),
                                  encoding: .utf8)
        let first = try XCTUnwrap(readme.components(separatedBy: "```swift\n").dropFirst().first)
        XCTAssertTrue(consumer.hasSuffix(first.components(separatedBy: "```")[0]), "Examples/Consumer differs from the README's first listing")
    }

    /// The README stays a front page (what it is, the two commands, a tour, a first recipe, links); the reference
    /// lives in docs/, and every page it links to exists.
    func testTheReadmeIsShortAndItsLinksResolve() throws {
        for (name, text) in try documents() {
            if name == "README.md" { XCTAssertLessThanOrEqual(text.split(separator: "\n", omittingEmptySubsequences: false).count, 250) }
            let folder = name == "README.md" ? Fixtures.repository : Fixtures.repository.appendingPathComponent("docs")
            for link in text.components(separatedBy: "](").dropFirst() {
                let target = String(link.prefix { $0 != ")" && $0 != "#" })
                guard !target.isEmpty, !target.hasPrefix("http") else { continue }
                XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(target).path), "\(name) links to \(target)")
            }
        }
    }

    /// docs/architecture.md's layout table names every module of Sources/.
    func testTheLayoutNamesEveryModule() throws {
        let page = try String(contentsOf: Fixtures.repository.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let layout = try XCTUnwrap(page.components(separatedBy: "## Layout").dropFirst().first)
        let modules = try FileManager.default.contentsOfDirectory(atPath: Fixtures.repository.appendingPathComponent("Sources").path)
        XCTAssertGreaterThanOrEqual(modules.count, 39)
        for module in modules { XCTAssertTrue(layout.contains("`\(module)`"), "docs/architecture.md does not name \(module)") }
    }

    /// CONTRIBUTING.md walks through adding a filter, a primitive and a codec: every file and folder it names in
    /// backticks exists, and every test it names is a test class of the suite.
    func testTheContributingGuideNamesWhatExists() throws {
        let guide = try String(contentsOf: Fixtures.repository.appendingPathComponent("CONTRIBUTING.md"), encoding: .utf8)
        for heading in ["## A filter", "## A primitive", "## A codec"] { XCTAssertTrue(guide.contains(heading), heading) }
        var paths = 0
        for quoted in guide.components(separatedBy: "`").enumerated().filter({ $0.offset % 2 == 1 }).map(\.element) {
            let candidate = quoted.split(separator: " ").last.map(String.init) ?? quoted
            guard candidate.contains("/"), !candidate.contains("="), !candidate.hasPrefix("--"),
                  candidate.first?.isLetter == true || candidate.hasPrefix("Sources") else { continue }
            XCTAssertTrue(FileManager.default.fileExists(atPath: Fixtures.repository.appendingPathComponent(candidate).path),
                          "CONTRIBUTING.md names \(candidate)")
            paths += 1
        }
        XCTAssertGreaterThanOrEqual(paths, 20)
        let tests = Fixtures.repository.appendingPathComponent("Tests")
        let sources = try FileManager.default.subpathsOfDirectory(atPath: tests.path).filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOf: tests.appendingPathComponent($0), encoding: .utf8) }.joined()
        for name in ["FilterReferenceTests", "CrossBackendTests", "GeneratedAPITests", "PrimitiveKernelTests",
                     "PrimitiveEncodingTests", "RegionRuleTests", "ReadmeListingTests"] where guide.contains(name) {
            XCTAssertTrue(sources.contains("class \(name)"), name)
        }
    }

    /// The catalogue table of docs/recipes.md names every filter of the catalogue, in the row of its kind, and no
    /// other.
    func testTheCatalogueTableIsComplete() throws {
        let readme = try String(contentsOf: Fixtures.repository.appendingPathComponent("docs/recipes.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "## The catalogue\n").dropFirst().first)
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
