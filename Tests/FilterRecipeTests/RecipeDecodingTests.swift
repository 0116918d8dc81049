import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

final class RecipeDecodingTests: XCTestCase {
    func issues(_ json: String) -> [String] {
        do {
            _ = try Recipe(json: Data(json.utf8))
            return []
        } catch let error as RecipeError {
            return error.issues.map(\.description)
        } catch {
            return ["unexpected \(error)"]
        }
    }

    func testMisspeltFilterNamesNearestValidName() {
        let found = issues(#"{"version":1,"steps":[{"op":"resize","scale":0.5},{"op":"exposure"},{"op":"gausianBlur"}]}"#)
        XCTAssertEqual(found, [#"steps[2].op: unknown filter "gausianBlur" (did you mean "gaussianBlur"?)"#])
    }

    func testWrongParameterTypeNamesRangeAndValue() {
        let found = issues(#"{"version":1,"inputs":["main"],"nodes":[{"id":"a","op":"exposure","input":"main"},{"id":"b","op":"gaussianBlur","input":"a","sigma":"big"}],"output":"b"}"#)
        XCTAssertEqual(found, [#"nodes[1].sigma: expected a number in 0...500, found "big""#])
    }

    func testSeveralErrorsAreReportedTogether() {
        let found = issues(#"{"version":2,"steps":[{"op":"gaussianBlur","sigmaa":1},{"op":"levels","inBlack":0.8,"inWhite":0.2},{"op":"crop","x":-1}],"extra":true}"#)
        XCTAssertEqual(found.count, 5, "\(found)")
        XCTAssertTrue(found.contains(#"extra: unknown key"#), "\(found)")
        XCTAssertTrue(found.contains("version: expected 1, found 2"), "\(found)")
        XCTAssertTrue(found.contains(#"steps[0].sigmaa: gaussianBlur has no parameter "sigmaa" (did you mean "sigma"?)"#), "\(found)")
        XCTAssertTrue(found.contains("steps[1]: inWhite must be greater than inBlack"), "\(found)")
        XCTAssertTrue(found.contains("steps[2].x: expected an integer in 0...1000000, found -1"), "\(found)")
    }

    func testGraphReferencesAndCycles() {
        XCTAssertEqual(issues(#"{"version":1,"nodes":[{"id":"a","op":"invert","input":"mian"}],"output":"a"}"#),
                       [#"nodes[0].input: no input or node named "mian" (did you mean "main"?)"#])
        XCTAssertEqual(issues(#"{"version":1,"nodes":[{"id":"a","op":"invert","input":"b"},{"id":"b","op":"invert","input":"a"}],"output":"b"}"#),
                       [#"nodes[0]: cycle through "a" → "b" → "a""#])
        XCTAssertEqual(issues(#"{"version":1,"nodes":[{"id":"a","op":"invert","input":"main"},{"id":"a","op":"invert","input":"main"}],"output":"a"}"#),
                       [#"nodes[1].id: "a" is already used by nodes[0]"#])
        XCTAssertEqual(issues(#"{"version":1,"nodes":[{"id":"a","op":"blend","inputs":["main"]}],"output":"a"}"#),
                       ["nodes[0]: blend takes 2 inputs (source, backdrop), found 1"])
        XCTAssertEqual(issues("{not json"), issues("{not json"))
        XCTAssertTrue(issues("{not json").first?.hasPrefix("not valid JSON") == true)
    }

    func testSizeDependentProblemsAreReportedByPath() throws {
        let recipe = try Recipe(json: Data(#"{"version":1,"steps":[{"op":"invert"},{"op":"crop","x":10,"width":500}]}"#.utf8))
        XCTAssertThrowsError(try recipe.plan(inputSizes: ["main": (100, 50)])) { error in
            XCTAssertEqual("\(error)", "steps[1]: crop rectangle x 10, y 0, 500×50 does not fit the 100×50 input")
        }
    }

    func testHostileRecipesAreRefusedBeforeAnyWork() throws {
        let many = "{\"version\":1,\"steps\":[" + Array(repeating: #"{"op":"invert"}"#, count: 1001).joined(separator: ",") + "]}"
        XCTAssertEqual(issues(many), ["steps: 1001 steps, more than the limit of 1000"])
        XCTAssertNoThrow(try Recipe(json: Data(many.utf8), limits: RecipeLimits(maxNodes: 2000)))
        let big = Data(("{\"version\":1,\"description\":\"" + String(repeating: "x", count: 2 << 20) + "\",\"steps\":[]}").utf8)
        XCTAssertThrowsError(try Recipe(json: big)) { XCTAssertTrue("\($0)".contains("more than the limit of 1048576"), "\($0)") }
        // Parameters within their ranges that together imply an absurd image are refused when sizes are known.
        let pad = try Recipe(json: Data(#"{"version":1,"steps":[{"op":"pad","top":100000,"bottom":100000,"left":100000,"right":100000}]}"#.utf8))
        XCTAssertThrowsError(try pad.plan(inputSizes: ["main": (100, 50)])) { error in
            XCTAssertEqual("\(error)", "steps[0]: the result would be 200100×200050, more than the limit of 2^28 pixels")
        }
    }

    func testSetOverridesAreValidated() throws {
        var recipe = Recipe.chain([(.gaussianBlur, ["sigma": 2])])
        try recipe.set(node: "0", param: "sigma", value: "4.5")
        XCTAssertEqual(recipe.nodes[0].params.number("sigma"), 4.5)
        XCTAssertThrowsError(try recipe.set(node: "0", param: "sigma", value: "900")) {
            XCTAssertEqual("\($0)", "0.sigma: expected a number in 0...500, found 900")
        }
        XCTAssertThrowsError(try recipe.set(node: "3", param: "sigma", value: "1"))
    }

    /// The builder and JSON describe the same graph: encode → decode is the identity, for chains and graphs.
    func testBuilderJSONRoundTrip() throws {
        let chain = try Image(input: "main").resize(scale: 0.5).gaussianBlur(sigma: 2).colorControls(saturation: 1.2)
        let graph = try Image(input: "main").gaussianBlur(sigma: 8).blend(backdrop: Image(input: "main"), mode: .screen, opacity: 0.5)
            .vignette()
        for image in [chain, graph] {
            let recipe = image.recipe
            let decoded = try Recipe(json: recipe.jsonData())
            XCTAssertEqual(decoded, recipe)
            XCTAssertEqual(try decoded.jsonData(), try recipe.jsonData())
        }
        XCTAssertTrue(chain.recipe.isChain)
        XCTAssertFalse(graph.recipe.isChain)
        XCTAssertEqual(graph.recipe.nodes.count, 3)
    }

    /// The published schema names every filter and parameter of the catalogue.
    func testSchemaIsGeneratedFromCatalogue() throws {
        let text = String(decoding: try CatalogueSchema.jsonData(), as: UTF8.self)
        for id in FilterID.allCases {
            XCTAssertTrue(text.contains("\"\(id.rawValue)\""), id.rawValue)
            for p in id.spec.params { XCTAssertTrue(text.contains("\"\(p.name)\""), "\(id).\(p.name)") }
        }
        let committed = try String(contentsOf: Fixtures.repository.appendingPathComponent("recipes/schema.json"), encoding: .utf8)
        XCTAssertEqual(committed.trimmingCharacters(in: .whitespacesAndNewlines), text.trimmingCharacters(in: .whitespacesAndNewlines),
                       "recipes/schema.json is stale: regenerate with `filterrun schema > recipes/schema.json`")
    }
}

/// The recipe JSON reader: strict where Foundation's decoder was lenient, and linear whatever the nesting.
final class RecipeParsingTests: XCTestCase {
    func message(_ text: String) -> String {
        do { _ = try Recipe(json: Data(text.utf8)); return "" } catch { return "\(error)" }
    }

    func testSyntaxErrorsGiveLineAndColumn() {
        XCTAssertEqual(message("{\"version\":1,\n\"steps\":[{\"op\" \"invert\"}]}"),
                       "not valid JSON at line 2, column 16: expected ':' after the key \"op\", found '\"'")
        XCTAssertEqual(message("{\"version\":1,\"steps\":[],}"),
                       "not valid JSON at line 1, column 25: a trailing comma before '}' (JSON allows none)")
        XCTAssertEqual(message(""), "not valid JSON at line 1, column 1: the recipe is empty; expected a JSON object")
        XCTAssertEqual(message("{\"version\":1} x"), "not valid JSON at line 1, column 15: unexpected 'x' after the end of the JSON value")
        XCTAssertTrue(message("{\"description\":\"\u{1}\"}").contains("a control character"))
        XCTAssertTrue(message("{\"description\":\"\\ud800\"}").contains("unpaired surrogate"))
    }

    func testDuplicateKeysAndNonFiniteNumbersNameTheirPath() {
        XCTAssertTrue(message(#"{"version":1,"version":1,"steps":[]}"#).hasPrefix("version: duplicate key \"version\" (line 1, column 14)"))
        XCTAssertTrue(message(#"{"version":1,"steps":[{"op":"exposure","ev":-1e999}]}"#)
            .hasPrefix("steps[0].ev: the number -1e999 is out of range"))
    }

    func testEscapesAndUnicodeSurviveTheRoundTrip() throws {
        let recipe = try Recipe(json: Data(#"{"version":1,"description":"caf\u00e9 \ud83d\udcf7 \"q\" \\ \/ é","steps":[]}"#.utf8))
        XCTAssertEqual(recipe.description, "café 📷 \"q\" \\ / é")
    }

    /// The review's worst case: hundreds of nested lists around many numbers. Refused at the nesting limit, and a
    /// 1 MiB document at the limit is read once: the error names the value, not a time-out. (Timings are in
    /// BENCHMARKS.md: scripts/bench-parse.sh.)
    func testAdversarialRecipesAreRefusedQuickly() {
        let numbers = Array(repeating: "1", count: 200_000).joined(separator: ",")
        let deep = #"{"version":1,"description":"# + String(repeating: "[", count: 400) + numbers
            + String(repeating: "]", count: 400) + #","steps":[]}"#
        XCTAssertTrue(message(deep).contains("nesting deeper than 64 levels"), message(deep))
        let filler = Array(repeating: "1", count: 500_000).joined(separator: ",")
        let atLimit = #"{"version":1,"description":"# + String(repeating: "[", count: 62) + filler
            + String(repeating: "]", count: 62) + #","steps":[]}"#
        XCTAssertGreaterThan(atLimit.utf8.count, 1_000_000)
        XCTAssertTrue(message(atLimit).hasPrefix("description: expected a string, found [[["), message(atLimit).prefix(80) + "…")
    }
}
