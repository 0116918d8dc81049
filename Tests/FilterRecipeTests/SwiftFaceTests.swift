import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// The Swift face and the JSON face are one: every recipe in recipes/, rebuilt with the typed methods, renders to
/// the same pixels in the same layout.
final class SwiftFaceTests: XCTestCase {
    func srgb(_ image: Image) -> Image {
        var image = image
        image.workingSpace = .srgb
        return image
    }

    func look(_ name: String) -> String { Fixtures.repository.appendingPathComponent("recipes/looks/\(name).cube").path }

    func swiftRecipes() throws -> [String: Image] {
        let main = Image(input: "main")
        return [
            "black-and-white": try main.grayscale().curves(points: [(0, 0), (0.3, 0.22), (0.7, 0.8), (1, 1)])
                .unsharpMask(sigma: 10, amount: 0.15),
            "cutout": try main.temperatureTint(temperature: 15).setAlpha(mask: Image(input: "mask")),
            "edge-map": srgb(try main.median(radius: 1).sobel().levels(inWhite: 0.5)),
            "grade-16bit": try main.levels(inBlack: 0.01, inWhite: 0.95, gamma: 1.1)
                .curves(points: [(0, 0), (0.25, 0.2), (0.75, 0.82), (1, 1)])
                .temperatureTint(temperature: -10, tint: 3).vibrance(amount: 0.3),
            "portrait-glow": try main.gaussianBlur(sigma: 6).blend(backdrop: main, mode: .screen, opacity: 0.45)
                .temperatureTint(temperature: 12),
            "print-sharpen": try main.unsharpMask(sigma: 1.5, amount: 0.9, threshold: 0.01).sharpen(amount: 0.3),
            "straighten": srgb(try main.rotate(degrees: -3.5, canvas: .inside, kernel: .lanczos3).unsharpMask(sigma: 0.8, amount: 0.4)),
            "vignette": try main.exposure(ev: 0.2).vignette(radius: 0.9, intensity: 0.6),
            "vintage": srgb(try main.curves(points: [(0, 0.08), (0.5, 0.52), (1, 0.94)])
                .colorControls(contrast: 0.95, saturation: 0.75).sepia(intensity: 0.35).vignette(radius: 1.1, intensity: 0.45)),
            "caption": try main.text(text: "© FilterRecipe 2026", relativeSize: 0.04, weight: .semibold,
                                     color: RGBA(1, 1, 1, 0.75), position: .southeast, margin: 0.02).over(backdrop: main),
            "watermark": try Image(input: "watermark").over(backdrop: main, position: .southeast, margin: 0.03, relativeWidth: 0.2, opacity: 0.6),
            "web-thumbnail": try main.resize(width: 400, withoutEnlargement: true).unsharpMask(sigma: 0.8, amount: 0.6),
            "web-thumbnail-srgb": srgb(try main.resize(width: 400, withoutEnlargement: true).unsharpMask(sigma: 0.8, amount: 0.6)),
            "square-thumbnail": srgb(try main.resize(width: 256, height: 256, fit: .cover, position: .attention,
                                                     withoutEnlargement: true).unsharpMask(sigma: 0.6, amount: 0.5)),
            "looks/bleach-bypass": try main.lut(path: look("bleach-bypass")),
            "looks/teal-orange": try main.lut(path: look("teal-orange")),
            "looks/warm-film": try main.lut(path: look("warm-film")),
        ]
    }

    func testEveryRecipeRebuiltInSwiftGivesTheSameImage() throws {
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let swift = try swiftRecipes()
        for (name, json) in try RecipeFixtures.all() {
            let built = try XCTUnwrap(swift[name], "\(name) has no Swift twin in this test")
            try built.recipe.validate()
            XCTAssertEqual(built.recipe.inputs, json.inputs, name)
            let inputs = RecipeFixtures.inputs(for: name, json)
            let flat = name.replacingOccurrences(of: "/", with: "-")
            let a = scratch.appendingPathComponent("\(flat)-json.png").path, b = scratch.appendingPathComponent("\(flat)-swift.png").path
            try Renderer(backend: .cpu).render(json, inputs: inputs, output: a)
            try Renderer(backend: .cpu).render(built.recipe, inputs: inputs, output: b)
            let x = try TestImages.decode(path: a), y = try TestImages.decode(path: b)
            XCTAssertEqual(x.format, y.format, name)
            XCTAssertTrue(try PixelDigest.packedBytes(x) == PixelDigest.packedBytes(y), "\(name): the two faces differ")
        }
    }

    /// Typed calls carry the catalogue's defaults and types: a chain built in Swift encodes to the JSON a person
    /// would write.
    func testTypedCallsEncodeAsTheJSONRecipe() throws {
        let thumb = try Image(input: "main").resize(width: 400).unsharpMask(sigma: 0.8, amount: 0.6)
        let json = try Recipe(json: Data(#"{"version":1,"steps":[{"op":"resize","width":400},{"op":"unsharpMask","sigma":0.8,"amount":0.6}]}"#.utf8))
        XCTAssertEqual(thumb.recipe, json)
        XCTAssertEqual(try Image(input: "main").rotate(degrees: 270).flip(direction: .vertical).recipe,
                       try Recipe(json: Data(#"{"version":1,"steps":[{"op":"rotate","degrees":"270"},{"op":"flip","direction":"vertical"}]}"#.utf8)))
    }
}
