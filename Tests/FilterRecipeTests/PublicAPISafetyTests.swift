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

    /// A bad value throws where the builder is called, naming the call (as a JSON recipe names its path).
    func testTheReviewsCrashesAreErrors() throws {
        let photo = Image(input: "main")
        func issues(_ build: () throws -> Image) -> [String] {
            do { try build().recipe.validate(); return [] } catch let e as RecipeError { return e.issues.map(\.description) }
            catch { return ["\(error)"] }
        }
        XCTAssertEqual(issues { try photo.applying(.gaussianBlur, ["sigam": 3]) },
                       ["gaussianBlur(sigma:) in step 0, parameter sigam: gaussianBlur has no parameter \"sigam\" (did you mean \"sigma\"?)"])
        XCTAssertEqual(issues { try photo.applying(.gaussianBlur, ["sigma": "big"]) },
                       ["gaussianBlur(sigma:) in step 0, parameter sigma: expected a number in 0...500, found \"big\""])
        XCTAssertTrue(issues { try photo.applying(.blend, ["mode": "scren"], with: [Image(input: "b")]) }.first?
            .contains("blend(backdrop:mode:opacity:) in step 0, parameter mode: expected one of") == true)
        XCTAssertEqual(issues { try photo.gaussianBlur(sigma: 900) },
                       ["gaussianBlur(sigma:) in step 0, parameter sigma: expected a number in 0...500, found 900"])
        XCTAssertEqual(issues { try photo.exposure(ev: 1).invert().gaussianBlur(sigma: -3) },
                       ["gaussianBlur(sigma:) in step 2, parameter sigma: expected a number in 0...500, found -3"],
                       "the step is the call's place in the graph")
        XCTAssertEqual(issues { try photo.gaussianBlur(sigma: .nan) }.count, 1)
        // A problem only the image's size shows is found at render time, and named by the call too.
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let crop = try photo.invert().crop(x: 5000, y: 0, width: 10, height: 10)
        XCTAssertThrowsError(try crop.render(to: scratch.appendingPathComponent("c.png").path,
                                             renderer: Renderer(backend: .cpu), inputs: ["main": Fixtures.path("jpeg/restart_444.jpg")])) {
            guard case RenderError.recipe(let error) = $0 else { return XCTFail("\($0)") }
            XCTAssertTrue(error.issues.first?.path.hasPrefix("crop(x:y:width:height:) in step 1") == true, "\(error)")
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
            do {
                let recipe = try Image(input: "main").applying(op, params, with: others).recipe
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
