/// XMP too large for one JPEG segment (XMP Specification Part 3, 1.1.3.1): the standard packet names, in
/// `xmpNote:HasExtendedXMP`, the GUID of an extension packet (the MD5 digest of its bytes, 32 hexadecimal digits)
/// carried in APP1 segments named "http://ns.adobe.com/xmp/extension/" — each the GUID, the extension's full length and
/// this chunk's offset (32-bit big-endian), then the chunk. Lightroom's edit histories and phones' depth maps live
/// there.
package struct ExtendedXMP: Sendable, Equatable {
    /// The standard packet as stored (naming the extension).
    package var standard: [UInt8]
    /// The extension packet, reassembled.
    package var extensionPacket: [UInt8]
    /// Its GUID, 32 ASCII hexadecimal digits.
    package var guid: [UInt8]

    package init(standard: [UInt8], extensionPacket: [UInt8], guid: [UInt8]) {
        self.standard = standard
        self.extensionPacket = extensionPacket
        self.guid = guid
    }

    /// The name that opens an extension chunk's segment, with its terminating zero.
    package static let signature = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]
    /// The most bytes of the extension one chunk carries (the segment's 65 533 less its name and 40 bytes of header).
    package static let chunkBytes = 65533 - signature.count - 40

    /// The extension the standard packet names, reassembled from `segments` (APP1 payloads in file order); nil when
    /// it names none, or its chunks do not cover it exactly once (absent, overlapping, a different length, beyond
    /// `limit` bytes).
    package init?(standard: [UInt8], segments: [[UInt8]], limit: Int = 64 << 20) {
        guard let guid = Self.namedGUID(standard) else { return nil }
        var total: Int?
        var chunks: [(offset: Int, bytes: ArraySlice<UInt8>)] = []
        for segment in segments where segment.count >= Self.signature.count + 40 && segment.starts(with: Self.signature) {
            let header = Self.signature.count
            guard Array(segment[header..<header + 32]) == guid else { continue }
            let length = Self.bigEndian(segment, at: header + 32), offset = Self.bigEndian(segment, at: header + 36)
            guard length <= limit, total == nil || total == length else { return nil }
            total = length
            chunks.append((offset, segment[(header + 40)...]))
        }
        guard let total, total > 0 else { return nil }
        chunks.sort { $0.offset < $1.offset }
        var packet = [UInt8]()
        packet.reserveCapacity(total)
        for chunk in chunks {
            guard chunk.offset == packet.count, packet.count + chunk.bytes.count <= total else { return nil }
            packet += chunk.bytes
        }
        guard packet.count == total else { return nil }
        self.standard = standard
        extensionPacket = packet
        self.guid = guid
    }

    /// The APP1 payloads that carry the extension, in order.
    package var segments: [[UInt8]] {
        stride(from: 0, to: extensionPacket.count, by: Self.chunkBytes).map { offset in
            Self.signature + guid + Self.bigEndianBytes(extensionPacket.count) + Self.bigEndianBytes(offset)
                + extensionPacket[offset..<min(extensionPacket.count, offset + Self.chunkBytes)]
        }
    }

    /// One packet holding both: the extension's descriptions placed in the standard packet's `rdf:RDF`, the note naming
    /// the extension removed — what formats with room for a whole packet (PNG, WebP, TIFF, AVIF, JPEG XL) carry. Nil
    /// where either packet is not UTF-8 RDF.
    package var merged: [UInt8]? {
        guard let standardText = String(bytes: standard, encoding: .utf8),
              let extensionText = String(bytes: extensionPacket, encoding: .utf8),
              let openTag = extensionText.range(of: "<rdf:RDF"),
              let openEnd = extensionText[openTag.upperBound...].firstIndex(of: ">"),
              let closeTag = extensionText.range(of: "</rdf:RDF>", options: .backwards),
              openEnd < closeTag.lowerBound,
              let insertAt = standardText.range(of: "</rdf:RDF>", options: .backwards) else { return nil }
        let descriptions = extensionText[extensionText.index(after: openEnd)..<closeTag.lowerBound]
        let text = standardText[..<insertAt.lowerBound] + descriptions + standardText[insertAt.lowerBound...]
        return Array(Self.removingNote(String(text)).utf8)
    }

    /// The GUID in `xmpNote:HasExtendedXMP`, as an attribute or an element.
    package static func namedGUID(_ packet: [UInt8]) -> [UInt8]? {
        guard let text = String(bytes: packet, encoding: .utf8) else { return nil }
        for (open, close) in [("xmpNote:HasExtendedXMP=\"", "\""), ("xmpNote:HasExtendedXMP='", "'"),
                              ("<xmpNote:HasExtendedXMP>", "</xmpNote:HasExtendedXMP>")] {
            guard let start = text.range(of: open), let end = text[start.upperBound...].range(of: close) else { continue }
            let guid = Array(text[start.upperBound..<end.lowerBound].utf8)
            guard guid.count == 32, guid.allSatisfy({ (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) }) else { return nil }
            return guid
        }
        return nil
    }

    /// `text` without its `xmpNote:HasExtendedXMP` property (either form).
    static func removingNote(_ text: String) -> String {
        var text = text
        for (open, close) in [(" xmpNote:HasExtendedXMP=\"", "\""), (" xmpNote:HasExtendedXMP='", "'"),
                              ("<xmpNote:HasExtendedXMP>", "</xmpNote:HasExtendedXMP>")] {
            while let start = text.range(of: open), let end = text[start.upperBound...].range(of: close) {
                text.removeSubrange(start.lowerBound..<end.upperBound)
            }
        }
        return text
    }

    private static func bigEndian(_ bytes: [UInt8], at i: Int) -> Int {
        Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
    }

    private static func bigEndianBytes(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
         UInt8(truncatingIfNeeded: value)]
    }
}
