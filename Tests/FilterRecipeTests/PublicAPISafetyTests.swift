import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// Nothing a caller passes through the public API stops the process: graphs built in Swift are checked exactly as
/// JSON recipes are, and bad ones throw `RecipeError`s.
final class PublicAPISafetyTests: XCTestCase {
    override func tearDown() {
        assertNoVulkanValidationMessages()
        super.tearDown()
    }

    func testTheReviewsCrashesAreErrors() throws {
        let photo = Image(input: "main")
        func issues(_ image: Image) -> [String] {
            do { try image.recipe.validate(); return [] } catch let e as RecipeError { return e.issues.map(\.description) }
            catch { return ["\(error)"] }
        }
        XCTAssertEqual(issues(photo.applying(.gaussianBlur, ["sigam": 3])),
                       ["steps[0].sigam: gaussianBlur has no parameter \"sigam\" (did you mean \"sigma\"?)"])
        XCTAssertEqual(issues(photo.applying(.gaussianBlur, ["sigma": "big"])),
                       ["steps[0].sigma: expected a number in 0...500, found \"big\""].map { $0 })
        XCTAssertTrue(issues(photo.applying(.blend, ["mode": "scren"], with: [Image(input: "b")])).first?
            .contains("expected one of") == true)
        XCTAssertEqual(issues(photo.applying(.gaussianBlur, ["sigma": 900])).count, 1)
        XCTAssertThrowsError(try photo.applying(.gaussianBlur, ["sigam": 3]).recipe.jsonData()) { XCTAssertTrue($0 is RecipeError) }
        let small = PixelBuffer(width: 8, height: 6, format: .rgb8)
        XCTAssertThrowsError(try Renderer(backend: .cpu).render(photo.applying(.gaussianBlur, ["sigma": .number(.nan)]).recipe, images: ["main": small])) {
            guard case RenderError.recipe = $0 else { return XCTFail("\($0)") }
        }
    }

    /// Random operations with random parameter names and values (of every JSON type, non-finite numbers too)
    /// and random extra inputs: each validates, encodes and renders, or throws — never traps.
    func testRandomGraphsThrowOrRender() throws {
        var random = SplitMix64(seed: 2026)
        func pick<T>(_ list: [T]) -> T { list[Int(random.next() % UInt64(list.count))] }
        let numbers: [Double] = [0, 1, -1, 0.5, 3, 255, 1e30, -1e30, .nan, .infinity, -.infinity, 1e-300, 100_000]
        func value() -> ParamValue {
            switch random.next() % 6 {
            case 0: return .number(pick(numbers))
            case 1: return .boolean(random.next() % 2 == 0)
            case 2: return .string(pick(["", "normal", "screen", "scren", "lanczos3", "90", "#ff0000", "big"]))
            case 3: return .numbers((0..<Int(random.next() % 12)).map { _ in pick(numbers) })
            case 4: return .points((0..<Int(random.next() % 5)).map { _ in [pick(numbers), pick(numbers)] })
            default: return .color(RGBA(pick(numbers), pick(numbers), pick(numbers), pick(numbers)))
            }
        }
        let small = PixelBuffer(width: 9, height: 7, format: .rgba8)
        var valid = 0
        for _ in 0..<400 {
            let op = pick(FilterID.allCases)
            let spec = op.spec
            var params: [String: ParamValue] = [:]
            for _ in 0..<Int(random.next() % 4) {
                let name = random.next() % 4 == 0 ? pick(["sigam", "", "x", "mode2"]) : (spec.params.isEmpty ? "none" : pick(spec.params).name)
                params[name] = value()
            }
            let others = (0..<Int(random.next() % 3)).map { Image(input: "in\($0)") }
            let image = Image(input: "main").applying(op, params, with: others)
            let recipe = image.recipe
            do {
                try recipe.validate()
                valid += 1
                _ = try recipe.jsonData()
                var images = ["main": small]
                for name in recipe.inputs { images[name] = small }
                _ = try Renderer(backend: .cpu).render(recipe, images: images)
            } catch is RecipeError {
            } catch is RenderError {
            }
        }
        XCTAssertGreaterThan(valid, 20)
    }
}

extension PublicAPISafetyTests {
    /// Working values a caller hands in may be NaN or infinite: every backend writes defined codes (NaN becomes 0)
    /// instead of trapping on a table index or reading out of bounds.
    func testNaNAndInfinityInInputPixelsAreWrittenAsDefinedCodes() throws {
        let values: [Float] = [.nan, .infinity, -.infinity, 1, 0.5, .nan, 0.2, .nan, 0.3, 0.4, 0.5, .infinity]
        let data = values.withUnsafeBytes { Data($0) }
        let pixels = try PixelBuffer(width: 3, height: 1, format: .rgba32f, copying: data)
        var backends: [Backend] = [.cpu]
        if (try? Renderer(backend: .vulkan).resolveBackend()) != nil { backends.append(.vulkan) }
        for backend in backends {
            for steps in [[(FilterID.curves, ["points": ParamValue.points([[0, 0.1], [1, 0.9]])])], [(.exposure, ["ev": 1])]] {
                let out = try Renderer(backend: backend).render(Recipe.chain(steps), images: ["main": pixels], format: .rgba8)
                let samples = try out.samples()
                XCTAssertEqual(samples.count, 12)
                XCTAssertTrue(samples.allSatisfy { (0...255).contains($0) }, "\(backend) \(steps): \(samples)")
            }
        }
    }
}
