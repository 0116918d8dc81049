import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// RenderError carries its cause as values: a caller can tell a missing input from a corrupt one, and a full
/// disk from an output that already exists.
final class TypedErrorTests: XCTestCase {
    func error(_ body: () throws -> Void) -> RenderError? {
        do { try body(); return nil } catch let e as RenderError { return e } catch { XCTFail("\(error)"); return nil }
    }

    /// Colours are written in Swift as a recipe writes them; a literal that is not a colour is a RecipeError naming
    /// the parameter, never a trap.
    func testColourLiteralsAreRecipeColours() throws {
        XCTAssertEqual([1, 1, 1, 0.75] as RGBA, RGBA(1, 1, 1, 0.75))
        XCTAssertEqual([0.2, 0.4, 0.6] as RGBA, RGBA(0.2, 0.4, 0.6, 1))
        XCTAssertEqual("#ff000080" as RGBA, RGBA(1, 0, 0, 128.0 / 255))
        XCTAssertEqual("white" as RGBA, .white)
        for bad: RGBA in [[1, 2], "#12", "nonsense"] {
            XCTAssertThrowsError(try Image(input: "main").pad(top: 2, color: bad)) { error in
                XCTAssertTrue("\(error)".contains("color"), "\(error)")
            }
        }
    }

    func testCausesAreValues() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let recipe = try Image(input: "main").invert().recipe
        let renderer = Renderer(backend: .cpu)
        func render(_ input: String, _ output: String = "o.png") -> RenderError? {
            error { try renderer.render(recipe, inputs: ["main": input], output: dir.appendingPathComponent(output).path) }
        }
        guard case .input(let missing)? = render(dir.appendingPathComponent("none.png").path) else { return XCTFail() }
        XCTAssertEqual(missing.kind, .missing)
        try Data("BM..............".utf8).write(to: dir.appendingPathComponent("a.bmp"))
        guard case .input(let bitmap)? = render(dir.appendingPathComponent("a.bmp").path) else { return XCTFail() }
        XCTAssertEqual(bitmap.kind, .notAnImage)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/baseline_420.jpg")))
        try bytes.prefix(bytes.count / 2).write(to: dir.appendingPathComponent("cut.jpg"))
        guard case .input(let cut)? = render(dir.appendingPathComponent("cut.jpg").path) else { return XCTFail() }
        XCTAssertEqual(cut.kind, .corrupt)
        XCTAssertNil(render(Fixtures.path("jpeg/grey.jpg")))
        guard case .output(let exists)? = render(Fixtures.path("jpeg/grey.jpg")) else { return XCTFail() }
        XCTAssertEqual(exists.kind, .exists)
        // A Recipe made without the builders is checked when rendered, with its JSON path.
        let negative = Recipe.chain([(.gaussianBlur, ["sigma": .number(-1)])])
        guard case .recipe(let invalid)? = error({
            _ = try renderer.render(negative, inputs: ["main": Fixtures.path("jpeg/grey.jpg")],
                                    output: dir.appendingPathComponent("r.png").path)
        }) else { return XCTFail() }
        XCTAssertEqual(invalid.issues.first?.path, "steps[0].sigma")
    }
}
