import FilterCore
import Foundation
import TestSupport
import XCTest

/// Every recipe on the Vulkan backend under the Khronos layer's best-practices checks (on top of core and
/// synchronization validation): no message at all. `run` fails the test on any `vulkan validation:` line.
extension FilterRunTests {
    func testEveryRecipeIsSilentUnderBestPracticesValidation() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        let probe = try run([vignette, photo, path("probe-bp.png"), "--backend", "vulkan"],
                            environment: ["FILTERRUN_VULKAN_VALIDATION": "best-practices"], allowValidationMessages: true)
        try XCTSkipIf(probe.stderr.contains("validation layer") && probe.code != 0, "the Khronos validation layer is not installed")
        let all = try RecipeFixtures.all()
        XCTAssertGreaterThanOrEqual(all.count, 8)
        for (name, recipe) in all {
            var arguments = [recipes.appendingPathComponent("\(name).json").path]
            let inputs = RecipeFixtures.inputs(for: name, recipe)
            arguments.append(inputs[recipe.inputs.first ?? "main"] ?? photo)
            arguments.append(path("\(name.replacingOccurrences(of: "/", with: "-"))-bp.png"))
            for (input, file) in inputs.sorted(by: { $0.key < $1.key }) where input != recipe.inputs.first {
                arguments += ["--input", "\(input)=\(file)"]
            }
            let r = try run(arguments + ["--backend", "vulkan"], environment: ["FILTERRUN_VULKAN_VALIDATION": "best-practices"])
            XCTAssertEqual(r.code, 0, "\(name): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("vulkan validation:"), "\(name): \(r.stderr)")
        }
    }
}
