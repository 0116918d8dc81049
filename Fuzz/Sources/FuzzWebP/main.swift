import FilterRecipe
import FuzzDriver
import FuzzRender
import Foundation

/// Any bytes as a WebP, through the public face: its RIFF chunks demuxed (ICCP, EXIF, animation frames), the still
/// or first frame decoded, its profile applied and its orientation read; every other input is also shrunk, so a
/// lossy still goes through the band-by-band box reduction (libwebp's incremental decoder) and a lossless one
/// through libwebp's rescaler. Rendered as FuzzRender describes.
let thumbnail = try! Recipe(json: Data(#"{"version":1,"workingSpace":"srgb","steps":[{"op":"resize","width":4}]}"#.utf8))
let strict = FuzzRender.renderer()

func fuzzWebP(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    if count % 2 == 0 { FuzzRender.invert(data) } else { _ = try? strict.render(thumbnail, encoded: ["main": data], as: .png) }
    return 0
}

runFuzzer { fuzzWebP($0, $1) }
