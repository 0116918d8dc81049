import FilterRecipe
import FuzzDriver
import Foundation

/// Any bytes as a GIF, through the public face: its records read by giflib up to the first image, that image
/// decoded (interlaced or not) and composed; a result or a RenderError, never a crash or
/// an over-allocation (small pixel and memory limits stand in for the defaults).
var options = Renderer.Options()
options.maxPixels = 1 << 18
options.maxMemory = 16 << 20
let renderer = Renderer(backend: .cpu, options: options)
let invert = try! Image(input: "main").invert().recipe

func fuzzGIF(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes else { return 0 }
    _ = try? renderer.render(invert, encoded: ["main": Data(bytes: bytes, count: count)], as: .png)
    return 0
}

runFuzzer { fuzzGIF($0, $1) }
