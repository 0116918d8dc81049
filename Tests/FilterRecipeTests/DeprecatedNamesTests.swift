import FilterRecipe
import XCTest

/// The builder's names before they were generated from the catalogue still compile (deprecated, with their new
/// names) and build the same recipes, so code written against the last release keeps working for a minor version.
final class DeprecatedNamesTests: XCTestCase {
    @available(*, deprecated)
    func testOldNamesBuildWhatTheNewOnesBuild() throws {
        let main = Image(input: "main"), logo = Image(input: "logo")
        XCTAssertEqual(try main.resized(scale: 0.5).recipe, try main.resize(scale: 0.5).recipe)
        XCTAssertEqual(try main.resized(width: 400).recipe, try main.resize(width: 400).recipe)
        XCTAssertEqual(try main.cropped(x: 1, y: 2, width: 30, height: 40).recipe, try main.crop(x: 1, y: 2, width: 30, height: 40).recipe)
        XCTAssertEqual(try logo.blended(onto: main, mode: .multiply, opacity: 0.5).recipe,
                       try logo.blend(backdrop: main, mode: .multiply, opacity: 0.5).recipe)
    }
}
