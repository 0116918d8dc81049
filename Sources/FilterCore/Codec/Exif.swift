/// The one Exif field that changes pixels: the orientation tag (0x0112) of the first IFD. Read from the TIFF
/// structure an Exif block holds (JPEG APP1 after "Exif\0\0", PNG eXIf); anything malformed reads as 1 (upright),
/// so a damaged block never stops the pixels.
package enum Exif {
    package static func orientation(_ block: [UInt8]) -> Int {
        guard block.count >= 8 else { return 1 }
        let little: Bool
        switch (block[0], block[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return 1
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= block.count else { return nil }
            return little ? Int(block[at]) | Int(block[at + 1]) << 8 : Int(block[at]) << 8 | Int(block[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        // Bounded by the bytes the block holds, not by the entry count: a directory of any length is read as far as
        // the block goes (at most 65 535 entries of 12 bytes), as ExifTool and Pillow read it.
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return 1 }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard at + 12 <= block.count, let tag = u16(at), let type = u16(at + 2) else { return 1 }
            guard tag == 0x0112 else { continue }
            // SHORT (3), count 1: the value sits in the first two bytes of the value field.
            guard type == 3, let value = u16(at + 8), (1...8).contains(value) else { return 1 }
            return value
        }
        return 1
    }

    /// A minimal Exif block holding only an orientation (for tests and for writers that must say "upright").
    package static func block(orientation: Int, littleEndian: Bool = true) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        return (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8) + u16(1)
            + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0)
    }
}
