import FilterRecipe
import FuzzDriver
import FuzzRender
import Foundation

/// Any bytes as an AVIF image sequence (the major brand is forced to `avis`, so the frame-by-frame path takes
/// them): boxes and sample tables parsed by libavif, each frame decoded by dav1d or libaom and converted to RGBA,
/// the inversion run on every frame and the frames written as an animated WebP, under FuzzRender's small limits.
/// A result or a RenderError; anything else is the finding.
let output = NSTemporaryDirectory() + "fuzz-avis-\(getpid()).webp"

func fuzzAVIFSequence(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes, count >= 12 else { return 0 }
    var file = Data(bytes: bytes, count: count)
    file.replaceSubrange(4..<12, with: Array("ftypavis".utf8))
    var renderer = FuzzRender.renderer()
    renderer.options.replaceExisting = true
    renderer.options.maxWork = 4e6
    _ = try? renderer.renderAnimation(FuzzRender.inversion, sources: ["main": .encoded(file, name: "fuzz.avif")], output: output)
    try? FileManager.default.removeItem(atPath: output)
    return 0
}

runFuzzer { fuzzAVIFSequence($0, $1) }
