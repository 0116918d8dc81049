import FilterRecipe
import FuzzDriver
import Foundation

/// Any bytes as a JPEG XL, through the public face: its header and colour read by libjxl, its first frame
/// decoded on libjxl's threads; a result or a RenderError, never a crash or
/// an over-allocation (small pixel and memory limits stand in for the defaults).
var options = Renderer.Options()
options.maxPixels = 1 << 18
options.maxMemory = 16 << 20
let renderer = Renderer(backend: .cpu, options: options)
let invert = try! Image(input: "main").invert().recipe

func fuzzJXL(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes else { return 0 }
    _ = try? renderer.render(invert, encoded: ["main": Data(bytes: bytes, count: count)], as: .png)
    return 0
}

runFuzzer { fuzzJXL($0, $1) }
