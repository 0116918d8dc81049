import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// A result with no colour is written as grey (one sample a pixel, two with alpha), as libvips and OpenCV write a
/// grey result; a grey input's result that has colour (a sepia tone) gets three channels.
final class NeutralOutputTests: XCTestCase {
    func neutral(_ steps: [(FilterID, [String: ParamValue])], grey: Bool = false) throws -> Bool {
        try Recipe.chain(steps).plan(inputSizes: ["main": (20, 10)]).outputIsNeutral(sourceIsGrey: ["main": grey])
    }

    func testWhichPlansAreNeutral() throws {
        XCTAssertTrue(try neutral([(.grayscale, [:])]))
        XCTAssertTrue(try neutral([(.threshold, [:])]))
        XCTAssertTrue(try neutral([(.sobel, [:])]))
        XCTAssertTrue(try neutral([(.grayscale, [:]), (.gaussianBlur, ["sigma": 2]), (.vibrance, ["amount": 0.5]),
                                   (.rotate, ["degrees": 30, "background": .color(RGBA(0.5, 0.5, 0.5, 0))])]))
        XCTAssertTrue(try neutral([(.gamma, ["power": 0.8]), (.resize, ["width": 8])], grey: true))
        XCTAssertFalse(try neutral([(.gamma, ["power": 0.8])]))
        XCTAssertFalse(try neutral([(.grayscale, [:]), (.pad, ["top": 2, "color": .color(RGBA(1, 0, 0))])]))
        XCTAssertFalse(try neutral([(.grayscale, [:]), (.curves, ["red": .points([[0, 0.2], [1, 1]])])]))
        XCTAssertFalse(try neutral([(.sepia, [:])], grey: true))
        XCTAssertFalse(try neutral([(.colorControls, ["saturation": 1.3])]))
        XCTAssertTrue(try neutral([(.colorControls, ["saturation": 1.3])], grey: true), "saturation leaves grey grey")
    }

    /// Written files: a grayscale of an RGB JPEG is a one-component JPEG, of an RGBA PNG a grey + alpha PNG, with
    /// the grey the RGB render would have had; a colour recipe keeps three channels.
    func testGreyResultsAreWrittenGrey() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var recipe = Recipe.chain([(.grayscale, [:])])
        recipe.workingSpace = .srgb
        let jpeg = dir.appendingPathComponent("g.jpg").path
        try Renderer(backend: .cpu).render(recipe, inputs: ["main": Fixtures.path("jpeg/baseline_420.jpg")], output: jpeg)
        XCTAssertEqual(try TestImages.decoder(path: jpeg).format, .grey8)
        let png = dir.appendingPathComponent("g.png").path
        let rgba = Fixtures.path("photos/emerald_crop_320x240_rgba8.png")
        try Renderer(backend: .cpu).render(recipe, inputs: ["main": rgba], output: png)
        let grey = try TestImages.decode(path: png)
        XCTAssertEqual(grey.format, .greyA8)
        // The same pixels as the four-channel render, within the rounding of the luminance.
        let colour = try Renderer(backend: .cpu).render(recipe, images: ["main": try TestImages.decode(path: rgba)])
        XCTAssertEqual(colour.format, .rgba8, "an in-memory render keeps the input's layout")
        let g = try grey.hostBytes(), c = try colour.hostBytes()
        var worst = 0
        for y in 0..<grey.height {
            for x in 0..<grey.width {
                let alpha = Int(c.load(fromByteOffset: y * colour.rowStride + 4 * x + 3, as: UInt8.self))
                XCTAssertEqual(Int(g.load(fromByteOffset: y * grey.rowStride + 2 * x + 1, as: UInt8.self)), alpha)
                guard alpha > 0 else { continue }
                let red = Int(c.load(fromByteOffset: y * colour.rowStride + 4 * x, as: UInt8.self))
                worst = max(worst, abs(Int(g.load(fromByteOffset: y * grey.rowStride + 2 * x, as: UInt8.self)) - red))
            }
        }
        XCTAssertLessThanOrEqual(worst, 1)
        let sepia = dir.appendingPathComponent("s.jpg").path
        try Renderer(backend: .cpu).render(.chain([(.sepia, [:])]), inputs: ["main": Fixtures.path("jpeg/grey.jpg")],
                                           output: sepia)
        XCTAssertEqual(try TestImages.decoder(path: sepia).format, .rgb8, "a sepia tone of a grey photo has colour")
        let toned = try Renderer(backend: .cpu).render(.chain([(.sepia, [:])]),
                                                       images: ["main": try TestImages.decode(path: Fixtures.path("jpeg/grey.jpg"))])
        XCTAssertEqual(toned.format, .rgb8)
    }
}
