import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// The fuzzers' regression seeds (Fuzz/seeds: one per case the reliability review found) run through the product
/// on every test run: each recipe decodes or is refused, each image renders or is refused, and nothing is left.
final class FuzzSeedTests: XCTestCase {
    let seeds = Fixtures.repository.appendingPathComponent("Fuzz/seeds")

    func files(_ kind: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: seeds.appendingPathComponent(kind), includingPropertiesForKeys: nil)
            .sorted { $0.path < $1.path }
    }

    func testEverySeedIsHandled() throws {
        var refused = 0
        for file in try files("recipe") {
            do { _ = try Recipe(json: Data(contentsOf: file)) } catch is RecipeError { refused += 1 }
        }
        XCTAssertGreaterThanOrEqual(refused, 5, "the hostile recipes are refused")
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let recipe = try Image(input: "main").invert().recipe
        var options = Renderer.Options()
        options.maxMemory = 64 << 20
        for file in try files("png") + files("jpeg") + files("webp") + files("tiff") + files("heif") + files("gif") + files("jxl") {
            let output = dir.appendingPathComponent(file.lastPathComponent + ".png").path
            do {
                try Renderer(backend: .cpu, options: options).render(recipe, inputs: ["main": file.path], output: output)
            } catch let error as RenderError {
                XCTAssertFalse(FileManager.default.fileExists(atPath: output), "\(file.lastPathComponent): \(error)")
            }
        }
        // AVIF sequences and JPEG XL animations go frame by frame into an animated WebP.
        for file in try files("avis") + files("jxlanim") {
            let output = dir.appendingPathComponent(file.lastPathComponent + ".webp").path
            do {
                try Renderer(backend: .cpu, options: options).renderAnimation(recipe, inputs: ["main": file.path], output: output)
            } catch let error as RenderError {
                XCTAssertFalse(FileManager.default.fileExists(atPath: output), "\(file.lastPathComponent): \(error)")
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }, [])
    }
}
