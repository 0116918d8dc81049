import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// `resize`'s fit, position and withoutEnlargement against sharp's documented sizes (api-resize: "cover … crop to
/// cover both dimensions", "contain … letterboxing", "fill … stretch", "inside … less than or equal to both",
/// "outside … greater than or equal to both", "withoutEnlargement: do not scale up"). Pixels are checked against the
/// float64 reference at every fit and compass point by `FilterReferenceTests`.
final class FitTests: XCTestCase {
    /// (input, width, height, fit, withoutEnlargement) → the output size sharp gives.
    static let table: [(input: (Int, Int), box: (Int, Int), fit: String, noEnlargement: Bool, expected: (Int, Int))] = [
        ((600, 400), (400, 400), "fill", false, (400, 400)),
        ((600, 400), (400, 400), "cover", false, (400, 400)),
        ((600, 400), (400, 400), "contain", false, (400, 400)),
        ((600, 400), (400, 400), "inside", false, (400, 267)),
        ((600, 400), (400, 400), "outside", false, (600, 400)),
        ((1000, 500), (300, 300), "inside", false, (300, 150)),
        ((1000, 500), (300, 300), "outside", false, (600, 300)),
        ((1000, 500), (300, 300), "cover", false, (300, 300)),
        ((1000, 500), (300, 100), "fill", true, (300, 100)),
        ((100, 100), (200, 50), "fill", true, (100, 50)),
        ((198, 132), (400, 400), "cover", true, (198, 132)),
        ((198, 132), (400, 400), "contain", true, (400, 400)),
        ((198, 132), (400, 400), "inside", true, (198, 132)),
        ((198, 132), (400, 400), "outside", true, (198, 132)),
        ((198, 132), (400, 400), "inside", false, (400, 267)),
        ((198, 132), (400, 400), "outside", false, (600, 400)),
        ((3000, 2000), (400, 400), "cover", true, (400, 400)),
    ]

    func testSizesMatchSharpsDefinitions() throws {
        for row in Self.table {
            let recipe = Recipe.chain([(.resize, ["width": .number(Double(row.box.0)), "height": .number(Double(row.box.1)),
                                                  "fit": .string(row.fit), "withoutEnlargement": .boolean(row.noEnlargement)])])
            let plan = try recipe.plan(inputSizes: ["main": row.input])
            let out = plan.nodes[plan.output]
            XCTAssertEqual(out.width, row.expected.0, "\(row)")
            XCTAssertEqual(out.height, row.expected.1, "\(row)")
        }
    }

    /// A thumbnail never enlarges with withoutEnlargement: a 198×132 photo stays as it is for a 400 px width.
    func testWithoutEnlargementKeepsSmallImages() throws {
        let recipe = Recipe.chain([(.resize, ["width": 400, "withoutEnlargement": true])])
        let plan = try recipe.plan(inputSizes: ["main": (198, 132)])
        XCTAssertEqual(plan.nodes[plan.output].width, 198)
        XCTAssertEqual(plan.nodes.count, 1, "no resample at all: the source is the output")
        let shrinking = try recipe.plan(inputSizes: ["main": (1200, 800)])
        XCTAssertEqual(shrinking.nodes[shrinking.output].width, 400)
    }

    func testTheWebThumbnailRecipesDoNotEnlarge() throws {
        for name in ["web-thumbnail", "web-thumbnail-srgb"] {
            let recipe = try Recipe(contentsOfFile: Fixtures.repository.appendingPathComponent("recipes/\(name).json").path)
            let plan = try recipe.plan(inputSizes: ["main": (198, 132)])
            XCTAssertEqual(plan.nodes[plan.output].width, 198, name)
        }
    }

    /// Contain places the image by its position on a box of the background; the box keeps the image's pixels.
    func testContainPlacesTheImageOnTheBackground() throws {
        let image = TestImages.synthetic(width: 40, height: 20)
        let red = RGBA(1, 0, 0, 1)
        for (position, left, top) in [("centre", 0, 10), ("north", 0, 0), ("south", 0, 20), ("west", 0, 10)] {
            let recipe = Recipe.chain([(.resize, ["width": 40, "height": 40, "fit": "contain", "position": .string(position),
                                                  "background": .color(red)])], workingSpace: .srgb)
            let out = try Renderer(backend: .cpu).render(recipe, images: ["main": image], format: .rgba8)
            XCTAssertEqual(out.width, 40)
            XCTAssertEqual(out.height, 40)
            let bytes = try out.samples()
            func pixel(_ x: Int, _ y: Int) -> [Int] { (0..<4).map { Int(bytes[(y * 40 + x) * 4 + $0]) } }
            // Rows outside the placed image are the background; rows inside are not (the image is noise).
            for y in 0..<40 where !(top..<top + 20).contains(y) {
                XCTAssertEqual(pixel(left + 5, y), [255, 0, 0, 255], "\(position) row \(y)")
            }
        }
    }

    /// Every parameter problem is named before anything is read.
    func testInvalidCombinationsAreRefused() {
        let cases: [([String: ParamValue], String)] = [
            (["width": 100, "fit": "cover"], "needs both width and height"),
            (["scale": 0.5, "fit": "contain"], "needs both width and height"),
            (["width": 100, "height": 100, "position": "north"], "position applies to fit"),
            (["width": 100, "height": 100, "fit": "contain", "position": "attention"], "needs fit \"cover\""),
        ]
        for (params, expected) in cases {
            let recipe = Recipe.chain([(.resize, params)])
            XCTAssertThrowsError(try recipe.validated(), "\(params)") { error in
                XCTAssertTrue("\(error)".contains(expected), "\(params): \(error)")
            }
        }
    }
}
