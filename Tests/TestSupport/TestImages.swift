import Foundation
import FilterCore
import JPEGCodec
import PNGCodec

/// Small crops of the real fixture photos, one per stored layout, for tests that compare against float64 code.
package enum TestImages {
    /// A `width×height` crop at (x, y) of a fixture.
    package static func crop(_ file: String, x: Int, y: Int, width: Int, height: Int) throws -> PixelBuffer {
        let full = try PNGDecoder.decode(path: Fixtures.path(file))
        let out = PixelBuffer(width: width, height: height, format: full.format)
        let src = try full.hostBytes(), dst = try out.mutableHostBytes()
        let bpp = full.format.bytesPerPixel
        for row in 0..<height {
            (dst + row * out.rowStride).copyMemory(from: src + (y + row) * full.rowStride + x * bpp, byteCount: width * bpp)
        }
        return out
    }

    /// rgb8, grey8, rgba8 (real partial alpha), rgb16, grey16 — each 40×28 (the second image has the same size).
    package static func small() throws -> [(name: String, image: PixelBuffer)] {
        [
            ("chelsea rgb8", try crop("photos/chelsea_451x300_rgb8.png", x: 200, y: 100, width: 40, height: 28)),
            ("camera grey8", try crop("photos/camera_512_gray8.png", x: 230, y: 90, width: 40, height: 28)),
            ("emerald rgba8", try crop("photos/emerald_crop_320x240_rgba8.png", x: 100, y: 40, width: 40, height: 28)),
            ("kleiber rgb16", try crop("photos/kleiber_crop_320x240_rgb16.png", x: 140, y: 100, width: 40, height: 28)),
            ("kleiber grey16", try crop("photos/kleiber_crop_320x240_gray16.png", x: 60, y: 150, width: 40, height: 28)),
        ]
    }

    /// The second input of compositing tests (real alpha) and a mask.
    package static func overlay() throws -> PixelBuffer {
        try crop("photos/emerald_crop_320x240_rgba8.png", x: 150, y: 120, width: 40, height: 28)
    }

    package static func mask() throws -> PixelBuffer {
        try crop("photos/camera_512_gray8.png", x: 100, y: 300, width: 40, height: 28)
    }
}

extension TestImages {
    /// A 37×23 RGBA16 image of seeded noise with fully transparent and fully opaque pixels, an odd size on purpose
    /// (partial work groups, rows that do not fill a 32-bit word).
    package static func synthetic(seed: UInt64 = 7, width: Int = 37, height: Int = 23) -> PixelBuffer {
        var random = SplitMix64(seed: seed)
        let image = PixelBuffer(width: width, height: height, format: .rgba16)
        let base = try! image.mutableHostBytes()
        for y in 0..<image.height {
            let row = (base + y * image.rowStride).assumingMemoryBound(to: UInt16.self)
            for x in 0..<image.width {
                for c in 0..<3 { row[x * 4 + c] = UInt16(truncatingIfNeeded: random.next()) }
                let pick = random.next() % 4
                row[x * 4 + 3] = pick == 0 ? 0 : (pick == 1 ? 65535 : UInt16(truncatingIfNeeded: random.next()))
            }
        }
        return image
    }
}

extension TestImages {
    /// A decoder for a PNG or JPEG file (told by its first bytes), as stored (no orientation or profile applied).
    package static func decoder(path: String) throws -> any ImageDecoder {
        let head = FileManager.default.contents(atPath: path)?.prefix(2) ?? Data()
        return head == Data([0xFF, 0xD8]) ? try JPEGDecoder(path: path) : try PNGDecoder(path: path)
    }

    /// A whole PNG or JPEG file as stored.
    package static func decode(path: String) throws -> PixelBuffer {
        let decoder = try decoder(path: path)
        let buffer = PixelBuffer(width: decoder.width, height: decoder.height, format: decoder.format)
        try decoder.readRows(into: try buffer.mutableHostBytes(), stride: buffer.rowStride, count: decoder.height)
        return buffer
    }
}
