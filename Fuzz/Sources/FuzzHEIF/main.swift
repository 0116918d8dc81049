import FuzzDriver
import FuzzRender
import Foundation

/// Any bytes as a HEIC or AVIF (the major brand is forced, so libheif always parses them), through the public
/// face: boxes parsed by libheif, the primary image (grids, transforms, alpha) decoded by libde265 or dav1d, its
/// colour description applied. Rendered as FuzzRender describes.
func fuzzHEIF(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes, count >= 12 else { return 0 }
    var file = Data(bytes: bytes, count: count)
    // Keep the sniffer's door open: a ftyp box with a HEIF brand (the fuzzer mutates everything after it).
    file.replaceSubrange(4..<8, with: Array("ftyp".utf8))
    if ![Array("heic".utf8), Array("avif".utf8), Array("mif1".utf8)].contains(Array(file[8..<12])) {
        file.replaceSubrange(8..<12, with: Array((count % 2 == 0 ? "heic" : "avif").utf8))
    }
    FuzzRender.invert(file)
    return 0
}

runFuzzer { fuzzHEIF($0, $1) }
