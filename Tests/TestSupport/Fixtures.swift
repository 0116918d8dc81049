import FilterCore
import Foundation

/// Files shipped with the tests (Tests/Fixtures) and scratch space.
package enum Fixtures {
    package static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The repository root (for recipes/ and samples/).
    package static let repository = root.deletingLastPathComponent().deletingLastPathComponent()

    package static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Real photos covering every decoded layout the tests need.
    package static let photos = [
        "photos/chelsea_451x300_rgb8.png",
        "photos/camera_512_gray8.png",
        "photos/emerald_crop_320x240_rgba8.png",
        "photos/kleiber_crop_320x240_rgb16.png",
        "photos/kleiber_crop_320x240_gray16.png",
    ]

    /// A new empty directory, removed by the caller's `defer`.
    package static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("filterrecipe-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The images every recipe in recipes/ is tested on, by name: one list read by the golden, optimizer, banding and
/// cross-backend tests.
package enum RecipeFixtures {
    /// Every recipe file (name without .json, decoded recipe), sorted by name.
    /// Every recipe in recipes/ and recipes/looks/, named by its path without ".json" ("looks/warm-film"), read
    /// from its file (so a look finds its table beside it).
    package static func all() throws -> [(name: String, recipe: Recipe)] {
        let dir = Fixtures.repository.appendingPathComponent("recipes")
        var names = [String]()
        for folder in ["", "looks/"] {
            names += try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(".json") && $0 != "schema.json" }.map { folder + String($0.dropLast(5)) }
        }
        return try names.sorted().map { ($0, try Recipe(contentsOfFile: dir.appendingPathComponent($0 + ".json").path)) }
    }

    /// The files a recipe's inputs are bound to.
    package static func inputs(for name: String, _ recipe: Recipe) -> [String: String] {
        let main = name == "grade-16bit" ? "photos/kleiber_crop_320x240_rgb16.png"
            : name == "cutout" ? "jpeg/baseline_420.jpg" : "photos/chelsea_451x300_rgb8.png"
        var inputs = ["main": Fixtures.path(main)]
        if recipe.inputs.contains("watermark") {
            inputs["watermark"] = Fixtures.repository.appendingPathComponent("samples/emerald-logo_160x120_rgba8.png").path
        }
        if recipe.inputs.contains("mask") { inputs["mask"] = Fixtures.path("jpeg/mask_163x109_grey8.png") }
        return inputs
    }

    /// Small in-memory images for a recipe's extra inputs (the main image is the caller's).
    package static func images(for recipe: Recipe) throws -> [String: PixelBuffer] {
        var images = [String: PixelBuffer]()
        if recipe.inputs.contains("watermark") { images["watermark"] = try TestImages.overlay() }
        if recipe.inputs.contains("mask") { images["mask"] = try TestImages.mask() }
        return images
    }
}
