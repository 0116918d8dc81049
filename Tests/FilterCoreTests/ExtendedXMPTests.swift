import FilterCore
import XCTest

/// Extended XMP's chunks (XMP Specification Part 3, 1.1.3.1) reassembled only when they cover the extension
/// exactly once under the GUID the standard packet names, split back into the same chunks, and merged into one packet.
final class ExtendedXMPTests: XCTestCase {
    let guid = Array("0123456789ABCDEF0123456789ABCDEF".utf8)
    let standard = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:xmpNote="http://ns.adobe.com/xmp/note/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmpNote:HasExtendedXMP="0123456789ABCDEF0123456789ABCDEF" dc:format="image/jpeg"/></rdf:RDF></x:xmpmeta>"#.utf8)

    func extensionPacket(_ size: Int) -> [UInt8] {
        let head = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:source>"#
        let tail = "</dc:source></rdf:Description></rdf:RDF></x:xmpmeta>"
        return Array((head + String(repeating: "z", count: max(0, size - head.count - tail.count)) + tail).utf8)
    }

    func testChunksReassembleSplitAndMerge() throws {
        let packet = extensionPacket(150_000)
        let written = ExtendedXMP(standard: standard, extensionPacket: packet, guid: guid)
        let segments = written.segments
        XCTAssertEqual(segments.count, 3)
        XCTAssertTrue(segments.allSatisfy { $0.count <= 65533 })
        // In any order, among other APP1 segments and another extension's chunks.
        var other = segments[0]
        other.replaceSubrange(ExtendedXMP.signature.count..<ExtendedXMP.signature.count + 32, with: Array("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF".utf8))
        let read = try XCTUnwrap(ExtendedXMP(standard: standard, segments: [Array("Exif\0\0".utf8), segments[2], other, segments[0], segments[1]]))
        XCTAssertEqual(read, written)
        let merged = try XCTUnwrap(String(bytes: try XCTUnwrap(read.merged), encoding: .utf8))
        XCTAssertFalse(merged.contains("HasExtendedXMP"))
        XCTAssertTrue(merged.contains("dc:format=\"image/jpeg\""))
        XCTAssertTrue(merged.contains("<dc:source>zzz"))
        XCTAssertEqual(merged.components(separatedBy: "<rdf:RDF").count, 2, "one RDF element")
        XCTAssertTrue(merged.hasSuffix("</rdf:RDF></x:xmpmeta>"))
    }

    func testIncompleteOrInconsistentChunksAreNotUsed() {
        let segments = ExtendedXMP(standard: standard, extensionPacket: extensionPacket(150_000), guid: guid).segments
        XCTAssertNil(ExtendedXMP(standard: standard, segments: [segments[0], segments[2]]), "a chunk missing")
        XCTAssertNil(ExtendedXMP(standard: standard, segments: segments + [segments[1]]), "a chunk twice")
        XCTAssertNil(ExtendedXMP(standard: standard, segments: [segments[0], segments[1]]), "cut short")
        var lengths = segments[2]
        lengths[ExtendedXMP.signature.count + 35] ^= 1
        XCTAssertNil(ExtendedXMP(standard: standard, segments: [segments[0], segments[1], lengths]), "another full length")
        XCTAssertNil(ExtendedXMP(standard: standard, segments: segments, limit: 100_000), "over the limit")
        let unnamed = Array(String(decoding: standard, as: UTF8.self).replacingOccurrences(of: "xmpNote:HasExtendedXMP", with: "xmpNote:Other").utf8)
        XCTAssertNil(ExtendedXMP(standard: unnamed, segments: segments), "the standard packet names no extension")
        XCTAssertNil(ExtendedXMP(standard: standard, segments: segments.map { Array($0.prefix(60)) }), "chunks cut inside their header")
    }
}
