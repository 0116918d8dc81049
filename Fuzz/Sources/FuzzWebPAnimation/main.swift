import FilterRecipe
import FuzzDriver
import FuzzRender
import Foundation

/// Any bytes as an animated WebP, frame by frame: the demuxed header's canvas and frame count checked before
/// libwebp's animation decoder allocates, each frame composed, inverted and written as an animated WebP, under
/// FuzzRender's small limits. A result or a RenderError; anything else is the finding.
let output = NSTemporaryDirectory() + "fuzz-webp-animation-\(getpid()).webp"

func fuzzWebPAnimation(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes, count >= 2 else { return 0 }
    var renderer = FuzzRender.renderer()
    renderer.options.replaceExisting = true
    renderer.options.maxWork = 4e7
    _ = try? renderer.renderAnimation(FuzzRender.inversion, sources: ["main": .encoded(Data(bytes: bytes, count: count), name: "fuzz.webp")],
                                      output: output)
    try? FileManager.default.removeItem(atPath: output)
    return 0
}

runFuzzer { fuzzWebPAnimation($0, $1) }
