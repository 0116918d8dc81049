import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// With a render running for every core (`RenderLoad.saturated`: a batch's `--jobs`, a busy server), a render keeps
/// to its own thread — decoding, filtering and encoding in turn, no decoder or encoder stage, no fanned-out row loop —
/// and gives the bytes it gives alone.
final class SaturatedRenderTests: XCTestCase {
    let recipes: [Recipe] = [
        Recipe.chain([(.resize, ["width": 200, "kernel": "lanczos3"]), (.unsharpMask, ["amount": 0.8])]),
        Recipe.chain([(.gaussianBlur, ["sigma": 2]), (.exposure, ["ev": 0.3]), (.vignette, [:])]),
        Recipe.chain([(.median, ["radius": 1]), (.rotate, ["degrees": "90"])]),
        Recipe.chain([]),  // the decoded rows copied to the encoder as they are
    ]
    let inputs = ["photos/chelsea_451x300_rgb8.png", "jpeg/baseline_420.jpg", "photos/kleiber_crop_320x240_rgb16.png"]
    /// JPEG to JPEG on the file's planes: a quarter turn moves them, a small rotation resamples them in bands.
    let planeRecipes: [Recipe] = {
        var small = Recipe.chain([(.rotate, ["degrees": 7, "background": .numbers([0, 0, 0])])])
        small.workingSpace = .srgb  // resampled on the planes in sRGB only
        return [Recipe.chain([(.rotate, ["degrees": "90"])]), small]
    }()

    /// Renders to a file and returns its bytes, the stage threads' jobs it started and its nodes' operations.
    func render(_ recipe: Recipe, _ input: String, to format: String, saturated: Bool) throws
        -> (Data, stages: Int, ops: [String]) {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("saturated-\(UUID().uuidString).\(format)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let renderer = Renderer(backend: .cpu)
        let before = StageThreads.stagesStarted
        // The other renders that fill the cores, held open around this one.
        func holding(_ others: Int, _ body: () throws -> Void) rethrows {
            if others == 0 { return try body() }
            try RenderLoad.run { try holding(others - 1, body) }
        }
        var ops = [String]()
        try holding(saturated ? WorkerPool.width - 1 : 0) {
            if saturated { XCTAssertFalse(RenderLoad.saturated, "one core is still this render's to take") }
            ops = try renderer.render(recipe, inputs: ["main": Fixtures.path(input)], output: output).nodes.map(\.op)
        }
        return (try Data(contentsOf: URL(fileURLWithPath: output)), StageThreads.stagesStarted - before, ops)
    }

    func testASaturatedRenderKeepsToItsThreadAndGivesTheSameBytes() throws {
        try XCTSkipIf(WorkerPool.width < 2, "one core: every render is saturated")
        let active = RenderLoad.active
        for recipe in recipes {
            for input in inputs {
                for format in ["png", "jpg", "webp"] {
                    let alone = try render(recipe, input, to: format, saturated: false)
                    let saturated = try render(recipe, input, to: format, saturated: true)
                    XCTAssertEqual(saturated.0, alone.0, "\(input) → \(format): the same bytes")
                    XCTAssertGreaterThan(alone.stages, 0, "\(input) → \(format): alone, it decodes and encodes on stages")
                    XCTAssertEqual(saturated.stages, 0, "\(input) → \(format): saturated, it starts no stage")
                }
            }
        }
        for recipe in planeRecipes {
            let alone = try render(recipe, "jpeg/baseline_420.jpg", to: "jpg", saturated: false)
            let saturated = try render(recipe, "jpeg/baseline_420.jpg", to: "jpg", saturated: true)
            XCTAssertTrue(alone.ops.contains { $0.hasSuffix("(JPEG planes)") }, "\(alone.ops)")
            XCTAssertEqual(saturated.0, alone.0, "on the planes: the same bytes")
            XCTAssertGreaterThan(alone.stages, 0, "on the planes, alone: the bands are worked on stages")
            XCTAssertEqual(saturated.stages, 0, "on the planes, saturated: no stage")
        }
        XCTAssertEqual(RenderLoad.active, active, "every render is counted out")
    }
}
