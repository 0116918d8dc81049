import FilterCore
import FilterRecipe
import XCTest

/// The working memory a render is refused by is the memory a strip-wise render holds: a shrink of a huge image
/// streams (its resample and box reduction read a strip's input rows, not the whole input), while a step that
/// reads its input out of order (a vertical flip) holds it whole.
final class WorkEstimateTests: XCTestCase {
    func estimate(_ recipe: Recipe, width: Int, height: Int) throws -> Double {
        let plan = Optimizer.optimize(try recipe.plan(inputSizes: ["main": (width, height)])).plan
        return WorkEstimate(plan).workingBytes
    }

    func testAShrinkStreamsAndAFlipHoldsItsInput() throws {
        let (w, h) = (12056, 6782)
        let shrink = try estimate(.chain([(.resize, ["width": 400]), (.unsharpMask, ["sigma": 0.8, "amount": 0.6])], workingSpace: .srgb),
                                  width: w, height: h)
        XCTAssertLessThan(shrink, 64 * 1_048_576, "a shrink of an 82 MP image streams")
        let flip = try estimate(.chain([(.flip, ["direction": "vertical"]), (.invert, [:])]), width: w, height: h)
        XCTAssertGreaterThanOrEqual(flip, Double(w * h * 4), "a vertical flip holds its whole input")
    }
}
