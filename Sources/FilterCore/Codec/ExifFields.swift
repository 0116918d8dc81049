/// An Exif field with its values, for a writer that rewrites fields one by one into directories of its own (TIFF).
package struct ExifField: Sendable, Equatable {
    /// Where the field sat: the image's own directory (IFD0), the Exif directory, or the GPS directory.
    package enum Directory: Int32, Sendable { case image = 0, exif = 1, gps = 2 }
    package var directory: Directory
    package var tag: Int
    /// The TIFF field type (1 BYTE … 12 DOUBLE).
    package var type: Int
    package var count: Int
    /// The values' bytes as the block stores them (its byte order): count × the type's size.
    package var bytes: [UInt8]

    package init(directory: Directory, tag: Int, type: Int, count: Int, bytes: [UInt8]) {
        self.directory = directory
        self.tag = tag
        self.type = type
        self.count = count
        self.bytes = bytes
    }
}

extension Exif {
    /// Bytes a value of each TIFF field type takes (0 for unknown types).
    package static let typeSizes = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4]

    /// The fields of a block's IFD0, Exif and GPS directories, each with its values read from wherever the block
    /// keeps them, bounds-checked (a field whose values lie outside the block is left out); the pointers between
    /// directories, the thumbnail's directory and the maker note (whose inner offsets would not survive a move) are
    /// not fields here. Nil when the block is not a readable TIFF structure. `bigEndian` is the block's byte order.
    package static func fields(_ block: [UInt8]) -> (bigEndian: Bool, fields: [ExifField])? {
        guard let order = ByteOrder(block), order.u16(block, 2) == 42, let first = order.u32(block, 4) else { return nil }
        let fields = Self.fields(first: first, bigEndian: !order.little) { offset, count in
            offset >= 0 && count >= 0 && offset + count <= block.count ? Array(block[offset..<(offset + count)]) : nil
        }
        return (!order.little, fields)
    }

    /// The same walk over any TIFF structure (a TIFF file's own directories): from the directory at `first`, its
    /// fields and those of the Exif and GPS directories it points to, the bytes at an offset given by `read`
    /// (nil past the end). At most 4096 entries a directory and 1 MiB a field are read. A BigTIFF's directories
    /// (`bigTIFF`) count their entries in 8 bytes, and each entry its values' count and offset in 8 (values of up to
    /// 8 bytes inline); its pointers may be 8-byte LONG8 or IFD8. Only the 12 classic types are fields (an Exif
    /// block holds no other).
    package static func fields(first: Int, bigEndian: Bool, bigTIFF: Bool = false,
                               read: (_ offset: Int, _ count: Int) -> [UInt8]?) -> [ExifField] {
        func number(_ b: [UInt8], _ at: Int, _ size: Int) -> Int {
            // Offsets beyond Int's range (a hostile 8-byte value) read as -1: nothing is there.
            if size == 8 && b[at + (bigEndian ? 0 : 7)] >= 0x80 { return -1 }
            return (0..<size).reduce(0) { $0 << 8 | Int(b[at + (bigEndian ? $1 : size - 1 - $1)]) }
        }
        let countBytes = bigTIFF ? 8 : 2, entryBytes = bigTIFF ? 20 : 12, wordBytes = bigTIFF ? 8 : 4
        var fields = [ExifField]()
        var visited = Set<Int>()
        func walk(_ ifd: Int, as directory: ExifField.Directory) {
            guard ifd >= 8, visited.insert(ifd).inserted, let head = read(ifd, countBytes) else { return }
            let n = number(head, 0, countBytes)
            guard n >= 0, let entries = read(ifd + countBytes, min(n, 4096) * entryBytes) else { return }
            for i in 0..<min(n, 4096) {
                let at = i * entryBytes, value = at + 4 + wordBytes
                let tag = number(entries, at, 2), type = number(entries, at + 2, 2), count = number(entries, at + 4, wordBytes)
                // A pointer: LONG or IFD (4 bytes), or in a BigTIFF also LONG8 or IFD8 (8 bytes).
                let pointerBytes = [4: 4, 13: 4, 16: 8, 18: 8][type] ?? 0
                switch (directory, tag) {
                case (.image, 0x8769), (.image, 0x8825):
                    if pointerBytes > 0, pointerBytes <= wordBytes, count == 1 {
                        walk(number(entries, value, pointerBytes), as: tag == 0x8769 ? .exif : .gps)
                    }
                    continue
                case (_, 0xA005), (.exif, 0x927C): continue  // the interoperability pointer, the maker note
                default: break
                }
                guard type < typeSizes.count, typeSizes[type] > 0, count > 0, count <= 1 << 20 else { continue }
                let size = typeSizes[type] * count
                guard size <= 1 << 20 else { continue }
                if let bytes = size <= wordBytes ? Array(entries[value..<(value + size)]) : read(number(entries, value, wordBytes), size) {
                    fields.append(ExifField(directory: directory, tag: tag, type: type, count: count, bytes: bytes))
                }
            }
        }
        walk(first, as: .image)
        return fields
    }
}

extension Exif {
    /// An Exif block (a TIFF structure) holding `fields` in the byte order their values are in: IFD0 with the image
    /// directory's fields and the pointers to an Exif and a GPS directory when there are fields for them, each
    /// directory's entries in tag order, values longer than four bytes after the directories at even offsets.
    package static func block(_ fields: [ExifField], bigEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16 & 0xFFFF) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
        let exif = fields.filter { $0.directory == .exif }.sorted { $0.tag < $1.tag }
        let gps = fields.filter { $0.directory == .gps }.sorted { $0.tag < $1.tag }
        var image = fields.filter { $0.directory == .image && $0.tag != 0x8769 && $0.tag != 0x8825 }
        // The pointers' values are filled in below, once the directories' places are known.
        if !exif.isEmpty { image.append(ExifField(directory: .image, tag: 0x8769, type: 4, count: 1, bytes: u32(0))) }
        if !gps.isEmpty { image.append(ExifField(directory: .image, tag: 0x8825, type: 4, count: 1, bytes: u32(0))) }
        image.sort { $0.tag < $1.tag }
        let directories = [image, exif, gps].filter { !$0.isEmpty }
        var starts = [Int](), at = 8
        for directory in directories {
            starts.append(at)
            at += 2 + directory.count * 12 + 4
        }
        // The Exif directory follows IFD0, the GPS directory the last before it.
        let pointers = [0x8769: starts.count > 1 ? starts[1] : 0, 0x8825: starts.last ?? 0]
        var values = at
        var out = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8)
        var tail = [UInt8]()
        for directory in directories {
            out += u16(directory.count)
            for field in directory {
                let bytes = field.directory == .image ? pointers[field.tag].map(u32) ?? field.bytes : field.bytes
                out += u16(field.tag) + u16(field.type) + u32(field.count)
                if bytes.count <= 4 {
                    out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
                } else {
                    out += u32(values)
                    tail += bytes + (bytes.count % 2 == 1 ? [0] : [])
                    values += bytes.count + bytes.count % 2
                }
            }
            // Each directory ends the chain: IFD1 (a thumbnail) is never written.
            out += u32(0)
        }
        return out + tail
    }
}
