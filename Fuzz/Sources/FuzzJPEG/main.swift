import FilterRecipe
import FuzzDriver
import Foundation

/// One scratch file per process, removed when the fuzzer exits.
let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-jpeg-\(getpid()).jpg").path
atexit { unlink(path) }

/// Any bytes as a JPEG file: decoding (whole, and at 1/8 in the DCT), its Exif orientation and its ICC profile
/// must give an image or a CodecError, never crash or over-allocate (small pixel and memory limits stand in for
/// the defaults).
func fuzzJPEG(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes else { return 0 }
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: bytes, count: count)) else { return 0 }
    guard let decoder = try? JPEGDecoder(path: path, maxPixels: 1 << 22, maxMemory: 64 << 20) else { return 0 }
    if let icc = decoder.metadata.iccProfile { _ = try? ColourProfile(icc: icc, source: path) }
    for factor in [1, 8] {
        _ = try? JPEGDecoder.decode(path: path, reducedBy: factor, maxPixels: 1 << 22, maxMemory: 64 << 20)
    }
    return 0
}

runFuzzer { fuzzJPEG($0, $1) }
