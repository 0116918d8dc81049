import FilterRecipe
import FuzzDriver
import Foundation

let scratch = ScratchFile(suffix: ".jpg")

/// Any bytes as a JPEG file: decoding (whole, and at 1/8 in the DCT), its Exif orientation and its ICC profile
/// must give an image or a CodecError, never crash or over-allocate (small pixel and memory limits stand in for
/// the defaults).
func fuzzJPEG(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes else { return 0 }
    for factor in [1, 8] {
        let fd = scratch.write(bytes, count)
        guard fd >= 0, let decoder = try? JPEGDecoder(descriptor: fd, name: scratch.path, maxPixels: 1 << 18, maxMemory: 16 << 20)
        else { return 0 }
        if factor == 1, let icc = decoder.metadata.iccProfile { _ = try? ColourProfile(icc: icc, source: scratch.path) }
        if factor > 1 { try? decoder.reduce(by: factor) }
        _ = try? decoder.readAll()
    }
    return 0
}

runFuzzer { fuzzJPEG($0, $1) }
