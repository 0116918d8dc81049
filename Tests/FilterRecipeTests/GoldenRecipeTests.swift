import FilterCore
import PNGCodec
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// Every recipe in recipes/ on a real photo against its golden output (Tests/Fixtures/golden), within 1 code.
/// Set FILTERRECIPE_RECORD_GOLDEN=1 to re-record after an intended change, and look at the images before committing.
final class GoldenRecipeTests: XCTestCase {
    static let record = ProcessInfo.processInfo.environment["FILTERRECIPE_RECORD_GOLDEN"] == "1"

    func testEveryRecipeMatchesItsGoldenOutput() throws {
        let recipes = try RecipeFixtures.all()
        XCTAssertGreaterThanOrEqual(recipes.count, 16)
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (name, recipe) in recipes {
            XCTAssertNotNil(recipe.description, "\(name) needs a description")
            let inputs = RecipeFixtures.inputs(for: name, recipe)
            let flat = name.replacingOccurrences(of: "/", with: "-")
            let out = scratch.appendingPathComponent("\(flat).png").path
            try Renderer(backend: .cpu).render(recipe, inputs: inputs, output: out)
            let golden = Fixtures.path("golden/\(flat).png")
            if Self.record {
                try? FileManager.default.removeItem(atPath: golden)
                try FileManager.default.copyItem(atPath: out, toPath: golden)
                continue
            }
            let expected = try PNGDecoder.decode(path: golden), found = try PNGDecoder.decode(path: out)
            XCTAssertEqual(found.format, expected.format, name)
            let d = Difference.between(try expected.samples(), try found.samples(), width: found.width,
                                       channels: found.format.channels)
            XCTAssertLessThanOrEqual(d.worst, found.format.depth == 16 ? 257 : 1, "\(name): \(d)")
        }
    }
}
