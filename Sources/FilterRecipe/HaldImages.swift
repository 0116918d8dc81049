import FilterCore
import Foundation
import PNGCodec

/// Reads Hald CLUT images for `lut` (the catalogue lives below the codecs, so the renderer lends it a PNG reader).
enum HaldImages {
    /// Registers the reader once, when the first renderer is made.
    static let register: Void = ColourLUT.imageReader.set { path in
        let image = try PNGDecoder.decode(path: path, maxPixels: 512 * 512)
        let format = image.format
        guard format.channels >= 3 else {
            throw PlanError("a Hald CLUT is an RGB image; this one has \(format.channels) channel(s)")
        }
        let base = try image.hostBytes()
        var rgb = [Float]()
        rgb.reserveCapacity(3 * image.width * image.height)
        for y in 0..<image.height {
            let row = base + y * image.rowStride
            for x in 0..<image.width {
                for c in 0..<3 {
                    let i = x * format.channels + c
                    rgb.append(format.depth == 16
                        ? Float(row.assumingMemoryBound(to: UInt16.self)[i]) / 65535
                        : Float(row.assumingMemoryBound(to: UInt8.self)[i]) / 255)
                }
            }
        }
        return (rgb, image.width, image.height)
    }
}
