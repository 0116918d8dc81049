import FilterRecipe
import FuzzDriver
import Foundation

/// Any bytes as a PNG, through the public face as a user's bytes would go (format by content, colour chunks and
/// profile, orientation, decode, a filter, encode): a result or a RenderError, never a crash or an over-allocation
/// (small pixel and memory limits stand in for the defaults).
let renderer: Renderer = {
    var options = Renderer.Options()
    options.maxPixels = 1 << 18
    options.maxMemory = 16 << 20
    return Renderer(backend: .cpu, options: options)
}()
let recipe = try! Image(input: "main").invert().recipe

func fuzzPNG(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes else { return 0 }
    _ = try? renderer.render(recipe, encoded: ["main": Data(bytes: bytes, count: count)], as: .png)
    return 0
}

runFuzzer { fuzzPNG($0, $1) }
