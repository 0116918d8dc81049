import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// docs/CONFORMANCE.md is the catalogue's conformance table, and every test it names exists.
final class ConformanceTableTests: XCTestCase {
    func testTheTableIsCurrent() throws {
        let committed = try String(contentsOf: Fixtures.repository.appendingPathComponent("docs/CONFORMANCE.md"), encoding: .utf8)
        XCTAssertEqual(committed, ConformanceTable.markdown(),
                       "docs/CONFORMANCE.md is stale: regenerate with `filterrun conformance > docs/CONFORMANCE.md`")
    }

    func testEveryNamedTestExists() throws {
        let tests = Fixtures.repository.appendingPathComponent("Tests")
        var sources = ""
        for case let file as String in FileManager.default.enumerator(atPath: tests.path)! where file.hasSuffix(".swift") {
            sources += try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
        }
        for id in FilterID.allCases {
            XCTAssertFalse(id.conformance.standard.isEmpty, "\(id) names no standard")
            for name in id.conformance.tests {
                let parts = name.split(separator: ".")
                XCTAssertTrue(sources.contains("class \(parts[0]):"), "\(id): no test class \(parts[0])")
                if parts.count == 2 { XCTAssertTrue(sources.contains("func \(parts[1])("), "\(id): no test \(name)") }
            }
        }
    }
}
