import FilterCore
import Foundation
import TestSupport
import XCTest

/// The grown catalogue from the command line: smart crops, trim, looks and `filterrun stats`.
extension FilterRunTests {
    func testStatsPrintsJSONAndFailsLikeARender() throws {
        let r = try run(["stats", recipes.appendingPathComponent("vignette.json").path, photo, "--components", "5x4", "--colors", "3"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["width"] as? Int, 451)
        XCTAssertEqual((json["dominantColors"] as? [Any])?.count, 3)
        XCTAssertEqual((json["blurHash"] as? String)?.count, 6 + 2 * (5 * 4 - 1))
        XCTAssertEqual(((json["histograms"] as? [String: [Int]])?["red"])?.reduce(0, +), 451 * 300)
        let missing = try run(["stats", recipes.appendingPathComponent("vignette.json").path, path("none.png")])
        XCTAssertEqual(missing.code, 3, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("none.png"), missing.stderr)
        let bad = try run(["stats", recipes.appendingPathComponent("vignette.json").path, photo, "--components", "4"])
        XCTAssertEqual(bad.code, 2, bad.stderr)
    }

    /// A look from recipes/looks runs from any folder (its table is found beside the recipe), and explain reports a
    /// smart crop's window.
    func testLooksAndSmartCropsFromTheCommandLine() throws {
        let look = try run([recipes.appendingPathComponent("looks/warm-film.json").path, photo, path("warm.jpg")])
        XCTAssertEqual(look.code, 0, look.stderr)
        let crop = try run([recipes.appendingPathComponent("square-thumbnail.json").path, photo, path("square.png"), "--explain"])
        XCTAssertEqual(crop.code, 0, crop.stderr)
        XCTAssertTrue(crop.stdout.contains("attention keeps the 256×256 window at"), crop.stdout)
        XCTAssertTrue(crop.stdout.contains("resize [0] crop at"), crop.stdout)
    }
}
