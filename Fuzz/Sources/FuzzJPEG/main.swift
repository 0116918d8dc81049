import FilterRecipe
import FuzzDriver
import FuzzRender
import Foundation

/// Any bytes as a JPEG, through the public face: decoded whole and shrunk at 1/8 in the DCT (a resize the optimizer
/// turns into a reduced decode), its ICC segments reassembled and its profile applied, its Exif orientation read,
/// under the strict default and with every kind of damage let pass: a result or a RenderError, never a crash or an
/// over-allocation (small pixel and memory limits stand in for the defaults). One render an input, chosen by its
/// length, so the three are each tried on every kind of input at a third of the cost.
let strict = FuzzRender.renderer(), lenient = FuzzRender.renderer(failOn: .never)
let invert = FuzzRender.inversion
let thumbnail = try! Recipe(json: Data(#"{"version":1,"workingSpace":"srgb","steps":[{"op":"resize","width":4}]}"#.utf8))

func fuzzJPEG(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    switch count % 3 {
    case 0: _ = try? strict.render(invert, encoded: ["main": data], as: .png)
    case 1: _ = try? lenient.render(invert, encoded: ["main": data], as: .png)
    default: _ = try? lenient.render(thumbnail, encoded: ["main": data], as: .png)
    }
    return 0
}

runFuzzer { fuzzJPEG($0, $1) }
