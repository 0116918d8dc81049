import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// The typed Swift methods are generated from the catalogue: the checked-in file must be exactly what the
/// catalogue generates now.
final class GeneratedAPITests: XCTestCase {
    static let file = Fixtures.repository.appendingPathComponent("Sources/FilterRecipe/Image+Catalogue.swift")

    func testCheckedInMethodsMatchTheCatalogue() throws {
        let source = CatalogueSwiftAPI.source()
        if ProcessInfo.processInfo.environment["FILTERRECIPE_RECORD_API"] == "1" {
            try source.write(to: Self.file, atomically: true, encoding: .utf8)
            return
        }
        let checkedIn = try String(contentsOf: Self.file, encoding: .utf8)
        XCTAssertTrue(checkedIn == source, "Image+Catalogue.swift is stale: re-record with FILTERRECIPE_RECORD_API=1 swift test --filter GeneratedAPITests")
        for id in FilterID.allCases {
            XCTAssertTrue(checkedIn.contains("public func \(id.rawValue)("), "no typed method for \(id)")
        }
    }
}
