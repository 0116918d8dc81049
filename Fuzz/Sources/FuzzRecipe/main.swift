import FilterRecipe
import FuzzDriver
import Foundation

/// Any bytes as a recipe: decoding must return a recipe or a RecipeError, never crash; a recipe that decodes must
/// also lower, optimise and render on small images through the public face (or fail with an error; the work limit
/// keeps each render small), and encode back to JSON that decodes.
let renderer: Renderer = {
    var options = Renderer.Options()
    options.maxWork = 1e6
    options.maxMemory = 16 << 20
    return Renderer(backend: .cpu, options: options)
}()
let image = try! PixelBuffer(width: 17, height: 11, format: .rgba8, copying: Data(count: 17 * 11 * 4))
func fuzzRecipe(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    guard let recipe = try? Recipe(json: data) else { return 0 }
    _ = try? renderer.render(recipe, images: Dictionary(uniqueKeysWithValues: recipe.inputs.map { ($0, image) }))
    if let encoded = try? recipe.jsonData(), (try? Recipe(json: encoded)) == nil {
        fatalError("a decoded recipe re-encoded to JSON that does not decode")
    }
    return 0
}

runFuzzer { fuzzRecipe($0, $1) }
