import FilterRecipe
import FuzzDriver
import Foundation

/// One scratch file per process, removed when the fuzzer exits.
let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-png-\(getpid()).png").path
atexit { unlink(path) }

/// Any bytes as a PNG file: decoding must return an image or a PNGError, never crash or over-allocate (a small
/// pixel limit stands in for the default one).
func fuzzPNG(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes else { return 0 }
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: bytes, count: count)) else { return 0 }
    _ = try? PNGDecoder.decode(path: path, maxPixels: 1 << 22)
    return 0
}

runFuzzer { fuzzPNG($0, $1) }
