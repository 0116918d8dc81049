/// The one Exif field that changes pixels: the orientation tag (0x0112) of the first IFD. Read from the TIFF
/// structure an Exif block holds (JPEG APP1 after "Exif\0\0", PNG eXIf); anything malformed reads as 1 (upright),
/// so a damaged block never stops the pixels.
package enum Exif {
    /// A TIFF structure's byte order, from its first two bytes ("II" little-endian, "MM" big-endian), and its
    /// bounds-checked readers and writers.
    struct ByteOrder {
        let little: Bool

        init?(_ block: [UInt8]) {
            guard block.count >= 8 else { return nil }
            switch (block[0], block[1]) {
            case (0x49, 0x49): little = true
            case (0x4D, 0x4D): little = false
            default: return nil
            }
        }

        func u16(_ b: [UInt8], _ at: Int) -> Int? {
            guard at >= 0, at + 2 <= b.count else { return nil }
            return little ? Int(b[at]) | Int(b[at + 1]) << 8 : Int(b[at]) << 8 | Int(b[at + 1])
        }

        func u32(_ b: [UInt8], _ at: Int) -> Int? {
            guard let x = u16(b, at), let y = u16(b, at + 2) else { return nil }
            return little ? x | y << 16 : x << 16 | y
        }

        /// Writes inside the block only (callers write where they have just read).
        func put16(_ b: inout [UInt8], _ at: Int, _ v: Int) {
            guard at >= 0, at + 2 <= b.count else { return }
            b[at] = UInt8(little ? v & 0xFF : v >> 8 & 0xFF)
            b[at + 1] = UInt8(little ? v >> 8 & 0xFF : v & 0xFF)
        }

        func put32(_ b: inout [UInt8], _ at: Int, _ v: Int) {
            put16(&b, little ? at : at + 2, v & 0xFFFF)
            put16(&b, little ? at + 2 : at, v >> 16 & 0xFFFF)
        }
    }

    package static func orientation(_ block: [UInt8]) -> Int {
        guard let order = ByteOrder(block) else { return 1 }
        func u16(_ at: Int) -> Int? { order.u16(block, at) }
        func u32(_ at: Int) -> Int? { order.u32(block, at) }
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

    /// The TIFF structure of an Exif payload however a container stored it: as it is, behind JPEG's "Exif\0\0", or
    /// behind HEIF's 4-byte offset to it (ISO/IEC 23008-12 A.2.1); nil when none of these holds one.
    package static func tiffStructure(inPayload payload: [UInt8]) -> [UInt8]? {
        func isTIFF(_ at: Int) -> Bool {
            at >= 0 && at + 8 <= payload.count
                && (payload[at..<at + 4].elementsEqual([0x49, 0x49, 0x2A, 0x00]) || payload[at..<at + 4].elementsEqual([0x4D, 0x4D, 0x00, 0x2A]))
        }
        if isTIFF(0) { return payload }
        if payload.starts(with: Array("Exif\0\0".utf8)), isTIFF(6) { return Array(payload[6...]) }
        guard payload.count >= 4 else { return nil }
        let offset = Int(payload[0]) << 24 | Int(payload[1]) << 16 | Int(payload[2]) << 8 | Int(payload[3])
        guard offset <= payload.count, isTIFF(4 + offset) else { return nil }
        return Array(payload[(4 + offset)...])
    }

    /// A minimal Exif block holding only an orientation (for tests and for writers that must say "upright").
    package static func block(orientation: Int, littleEndian: Bool = true) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        return (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8) + u16(1)
            + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0)
    }

    /// `block` edited for an output of `width` × `height`, in place so that every offset (maker notes' included)
    /// stays true: the orientation set to 1 when `upright`; the second directory (the embedded thumbnail, which
    /// shows the photo before the recipe) unlinked and erased with its image; the Exif directory's pixel
    /// dimensions set; and with `stripLocation` the GPS directory unlinked and erased with its values. Nil when
    /// the block is not a readable TIFF structure (it is then not carried at all).
    package static func edited(_ block: [UInt8], width: Int, height: Int, upright: Bool, stripLocation: Bool) -> [UInt8]? {
        var b = block
        guard let order = ByteOrder(block) else { return nil }
        func u16(_ at: Int) -> Int? { order.u16(b, at) }
        func u32(_ at: Int) -> Int? { order.u32(b, at) }
        func put16(_ at: Int, _ v: Int) { order.put16(&b, at, v) }
        func put32(_ at: Int, _ v: Int) { order.put32(&b, at, v) }
        func zero(_ at: Int, _ count: Int) {
            guard at >= 8, count > 0, at + count <= b.count else { return }
            for i in at..<(at + count) { b[i] = 0 }
        }
        /// A directory's entry count, when the directory and its next-directory offset lie inside the block.
        func entries(_ ifd: Int) -> Int? {
            guard ifd >= 8, let n = u16(ifd), ifd + 2 + n * 12 + 4 <= b.count else { return nil }
            return n
        }
        /// Erases a directory: the values stored outside it, then the directory itself.
        func erase(_ ifd: Int, alsoAt extra: [(offsetTag: Int, lengthTag: Int)] = []) {
            guard let n = entries(ifd) else { return }
            var tags = [Int: Int]()
            for i in 0..<n {
                let at = ifd + 2 + i * 12
                guard let tag = u16(at), let type = u16(at + 2), let count = u32(at + 4), let value = u32(at + 8) else { continue }
                if count == 1 { tags[tag] = value }
                let size = type < typeSizes.count ? typeSizes[type] * count : 0
                if size > 4 { zero(value, size) }
            }
            for (offsetTag, lengthTag) in extra {
                if let offset = tags[offsetTag], let length = tags[lengthTag] { zero(offset, length) }
            }
            zero(ifd, 2 + n * 12 + 4)
        }
        guard u16(2) == 42, let ifd0 = u32(4), let n0 = entries(ifd0) else { return nil }
        var exifIFD: Int?, gps: (entry: Int, ifd: Int)?
        for i in 0..<n0 {
            let at = ifd0 + 2 + i * 12
            guard let tag = u16(at), let type = u16(at + 2), let value = u32(at + 8) else { return nil }
            switch tag {
            case 0x0112 where upright && type == 3: put16(at + 8, 1)
            case 0x8769: exifIFD = value
            case 0x8825: gps = (i, value)
            default: break
            }
        }
        // The thumbnail's directory (IFD1) and its JPEG (JPEGInterchangeFormat, …Length).
        let next = ifd0 + 2 + n0 * 12
        if let ifd1 = u32(next), ifd1 != 0 {
            erase(ifd1, alsoAt: [(0x0201, 0x0202), (0x0111, 0x0117)])
            put32(next, 0)
        }
        if let exifIFD, let n = entries(exifIFD) {
            for i in 0..<n {
                let at = exifIFD + 2 + i * 12
                guard let tag = u16(at), tag == 0xA002 || tag == 0xA003, let type = u16(at + 2) else { continue }
                let value = tag == 0xA002 ? width : height
                if type == 4 { put32(at + 8, value) } else if type == 3, value <= 0xFFFF { put16(at + 8, value) }
            }
        }
        if stripLocation, let gps {
            erase(gps.ifd)
            // The entry leaves IFD0: those after it, and the next-directory offset, move up one place.
            let at = ifd0 + 2 + gps.entry * 12, end = ifd0 + 2 + n0 * 12 + 4
            b.replaceSubrange(at..<(end - 12), with: b[(at + 12)..<end])
            zero(end - 12, 12)
            put16(ifd0, n0 - 1)
        }
        return b
    }
}
