import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// The region rules (`Plan.inputRows`, read by both backends, `--explain` and the memory estimate) against the
/// float64 references: every input row that changes an output row must be among the rows the rules say that output
/// row reads. An impulse at one input row at a time shows, through the reference, which output rows it reaches.
final class RegionRuleTests: XCTestCase {
    func testEveryInfluencingRowIsReadForEverySingleInputFilter() throws {
        let width = 7, height = 24
        let zero = ReferenceImage(width: width, height: height, fill: SIMD4(0.1, 0.1, 0.1, 1))
        var checked = 0
        for id in FilterID.allCases where id.spec.inputs.count == 1 {
            for (label, recipe) in ParameterSweep.recipes(for: id) {
                let params = recipe.nodes[0].params
                let plan: Plan
                do {
                    let lowered = try recipe.lowering(inputSizes: ["main": (width, height)])
                    // A filter that looks at pixels first (trim) lowers, once answered, to a crop: checked as one.
                    guard lowered.questions.isEmpty else { continue }
                    plan = lowered.plan
                } catch { continue }
                guard let source = plan.nodes.firstIndex(where: { $0.primitive == .source(name: "main") }) else { continue }
                let base = ReferenceFilters.apply(id, params, [zero], space: .linear)
                for k in 0..<height {
                    var impulse = zero
                    for x in 0..<width { impulse.pixels[k * width + x] = SIMD4(0.9, 0.6, 0.3, 1) }
                    let out = ReferenceFilters.apply(id, params, [impulse], space: .linear)
                    for y in 0..<out.height {
                        let changed = (0..<out.width).contains { x in
                            let d = out.pixels[y * out.width + x] - base.pixels[y * out.width + x]
                            return (d * d).sum() > 1e-18
                        }
                        guard changed else { continue }
                        let read = plan.rowsNeeded(forOutput: y..<y + 1)[source]
                        XCTAssertTrue(read?.contains(k) ?? false,
                                      "\(id) \(label): output row \(y) depends on input row \(k) but reads \(String(describing: read))")
                        checked += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 1000)
    }
}
