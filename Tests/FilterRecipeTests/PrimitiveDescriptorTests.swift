import FilterCore
import FilterRecipe
import TestSupport
import Foundation
import XCTest

/// The primitives' descriptors (Sources/FilterCore/Primitives): their row rules are what the region rule, strip
/// scheduling, the memory estimate and `--explain` read, so each rule's parts must agree with one another on every
/// primitive the catalogue lowers to.
final class PrimitiveDescriptorTests: XCTestCase {
    /// Every plan the parameter sweep lowers to, at a size where windows stay inside the image.
    private func sweptPlans() -> [(String, Plan)] {
        var plans = [(String, Plan)]()
        let sizes = ["main": (40, 64), "other": (40, 64), "mask": (40, 64)]
        for id in FilterID.allCases {
            for (label, recipe) in ParameterSweep.recipes(for: id) {
                guard let lowered = try? recipe.lowering(inputSizes: sizes), lowered.questions.isEmpty else { continue }
                plans.append(("\(id) \(label)", lowered.plan))
            }
        }
        return plans
    }

    func testAFixedReachIsAWindowOfThatReachAroundEveryBand() {
        var checked = 0
        for (label, plan) in sweptPlans() {
            for index in plan.nodes.indices where !plan.nodes[index].inputs.isEmpty {
                let rule = plan.rowRule(of: index)
                guard let reach = rule.reach else {
                    XCTAssertNotNil(rule.rows(0..<1), "\(label) #\(index): a rule without a window still names its rows")
                    continue
                }
                XCTAssertFalse(rule.holdsWhole, "\(label) #\(index): a window does not hold its whole input")
                for band in [0..<1, 3..<11, 20..<21] {
                    guard let rows = rule.rows(band) else { XCTFail("\(label) #\(index) reads no rows"); continue }
                    // A box blur's window also reaches back to its running sums' segment start.
                    XCTAssertGreaterThanOrEqual(rows.count, band.count + 2 * reach, "\(label) #\(index) \(band)")
                    // And it moves down with the band: strips of the input serve.
                    let later = rule.rows((band.lowerBound + 5)..<(band.upperBound + 5))
                    XCTAssertEqual(later?.upperBound, rows.upperBound + 5, "\(label) #\(index) \(band)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 500)
    }

    func testSourcesAndGeneratorsReadNoInputRowsAndEveryNodeCostsATap() {
        for (label, plan) in sweptPlans() {
            for index in plan.nodes.indices {
                let node = plan.nodes[index]
                let descriptor = node.primitive.descriptor
                XCTAssertGreaterThanOrEqual(descriptor.taps(plan.shape(of: index)), 1, "\(label) #\(index)")
                XCTAssertFalse(descriptor.summary.isEmpty)
                if node.primitive.sourceName != nil || { if case .generate = node.primitive { return true }; return false }() {
                    XCTAssertNil(plan.rowRule(of: index).rows(0..<4), "\(label) #\(index)")
                }
            }
        }
    }

    /// `--explain` states the rule the backends follow: a box blur reads from the start of its running sums'
    /// segment, a vertical flip holds its whole input, a vertical resample reads the rows its taps reach.
    func testExplainStatesEachRowRule() throws {
        let recipe = try Recipe(json: Data("""
            {"version": 1, "steps": [{"op": "boxBlur", "radius": 3}, {"op": "flip", "direction": "vertical"},
                                     {"op": "resize", "width": 20, "height": 30}]}
            """.utf8))
        let plan = try recipe.lowering(inputSizes: ["main": (40, 64)]).plan
        let text = plan.explanation(backend: .cpu)
        XCTAssertTrue(text.contains("strips, reach 3 rows from the start of each 32-row segment"), text)
        XCTAssertTrue(text.contains("flip vertical 40×64 ← #1 (whole input"), text)
        XCTAssertTrue(text.contains("strips, the rows its taps reach"), text)
    }
}
