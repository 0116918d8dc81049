import FilterRecipe
import FuzzDriver
import FuzzRender
import Foundation

/// Any bytes as a JPEG XL animation, frame by frame: libjxl's header, frame headers and coalesced frames, durations
/// from its ticks, the inversion run on every frame and the frames written as an animated WebP, under FuzzRender's
/// small limits. A result or a RenderError; anything else is the finding.
let output = NSTemporaryDirectory() + "fuzz-jxl-animation-\(getpid()).webp"

func fuzzJXLAnimation(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes, count >= 2 else { return 0 }
    var renderer = FuzzRender.renderer()
    renderer.options.replaceExisting = true
    renderer.options.maxWork = 4e6
    _ = try? renderer.renderAnimation(FuzzRender.inversion, sources: ["main": .encoded(Data(bytes: bytes, count: count), name: "fuzz.jxl")],
                                      output: output)
    try? FileManager.default.removeItem(atPath: output)
    return 0
}

runFuzzer { fuzzJXLAnimation($0, $1) }
