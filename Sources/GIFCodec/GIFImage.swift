import CGIF
import FilterCore

/// One image record of a GIF (after its descriptor is read): its rectangle and colour table, and its pixels drawn
/// onto a canvas. The still reader (the first frame) and the animation reader (every frame) both draw through it.
struct GIFImage {
    let left: Int, top: Int, width: Int, height: Int
    let interlaced: Bool
    let palette: [SIMD3<UInt8>]

    /// The image whose descriptor `gif` has just read; `which` names it in messages ("its first image", "frame 3").
    init(_ gif: UnsafeMutablePointer<GifFileType>, path: String, which: String) throws {
        let desc = gif.pointee.Image
        (left, top, width, height, interlaced) = (Int(desc.Left), Int(desc.Top), Int(desc.Width), Int(desc.Height), desc.Interlace)
        guard width > 0, height > 0 else {
            throw CodecError(kind: .corrupt, path: path, message: "corrupt GIF: \(which) is \(width)×\(height)")
        }
        guard let map = desc.ColorMap ?? gif.pointee.SColorMap, map.pointee.ColorCount > 0 else {
            throw CodecError(kind: .corrupt, path: path, message: "corrupt GIF: \(which) has no colour table")
        }
        palette = (0..<Int(map.pointee.ColorCount)).map { i in
            let c = map.pointee.Colors[i]
            return SIMD3(c.Red, c.Green, c.Blue)
        }
    }

    /// Reads the image's rows and draws every pixel that is not the `transparent` index onto `canvas` (`channels`
    /// bytes a pixel, 3 or 4, `canvasWidth` × `canvasHeight`), clipped to it; drawn pixels are opaque.
    func draw(_ gif: UnsafeMutablePointer<GifFileType>, transparent: Int?, into canvas: inout [UInt8], canvasWidth: Int,
              canvasHeight: Int, channels: Int, path: String, which: String) throws {
        var line = [GifPixelType](repeating: 0, count: width)
        var codes = try GIFCodeStream(gif, path: path, which: which)
        // Interlaced images store rows 0, 8, 16…, then 4, 12…, then 2, 6…, then 1, 3….
        let order: [Int] = interlaced
            ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { Array(Swift.stride(from: $0.0, to: height, by: $0.1)) }
            : Array(0..<height)
        let visible = max(0, min(width, canvasWidth - left))
        for row in order {
            try line.withUnsafeMutableBufferPointer { try codes.read(into: $0.baseAddress!, count: width) }
            let y = top + row
            guard y < canvasHeight else { continue }
            for x in 0..<visible {
                let index = Int(line[x])
                if index == transparent { continue }
                // An index past the table is black, as browsers show it.
                let colour = index < palette.count ? palette[index] : SIMD3(0, 0, 0)
                let p = (y * canvasWidth + left + x) * channels
                canvas[p] = colour.x; canvas[p + 1] = colour.y; canvas[p + 2] = colour.z
                if channels == 4 { canvas[p + 3] = 255 }
            }
        }
        try codes.finish()
    }
}
