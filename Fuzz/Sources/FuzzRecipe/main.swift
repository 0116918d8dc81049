import FilterRecipe
import FuzzDriver
import Foundation

/// Any bytes as a recipe: decoding must return a recipe or a RecipeError, never crash; a recipe that decodes must
/// also lower against a small image (or fail with an error), and encode back to JSON that decodes.
func fuzzRecipe(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    guard let recipe = try? Recipe(json: data) else { return 0 }
    let sizes = Dictionary(uniqueKeysWithValues: recipe.inputs.map { ($0, (width: 17, height: 11)) })
    if let plan = try? recipe.plan(inputSizes: sizes) { _ = Optimizer.optimize(plan) }
    if let encoded = try? recipe.jsonData(), (try? Recipe(json: encoded)) == nil {
        fatalError("a decoded recipe re-encoded to JSON that does not decode")
    }
    return 0
}

runFuzzer { fuzzRecipe($0, $1) }
