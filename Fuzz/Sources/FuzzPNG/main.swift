import FilterRecipe
import FuzzDriver
import Foundation

let scratch = ScratchFile(suffix: ".png")

/// Any bytes as a PNG file: decoding must return an image or a PNGError, never crash or over-allocate (small pixel
/// and memory limits stand in for the defaults).
func fuzzPNG(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes else { return 0 }
    let fd = scratch.write(bytes, count)
    guard fd >= 0, let decoder = try? PNGDecoder(descriptor: fd, name: scratch.path, maxPixels: 1 << 18, maxMemory: 16 << 20)
    else { return 0 }
    _ = try? decoder.readAll()
    return 0
}

runFuzzer { fuzzPNG($0, $1) }
