import FilterCore
import XCTest

/// Exif blocks edited for an output (`--keep-metadata`), on blocks built here from the TIFF 6.0 / Exif 2.32 layout:
/// an 8-byte header, directories of 12-byte entries (tag, type, count, value or offset) each ending in the next
/// directory's offset; IFD0 points to the Exif and GPS directories, IFD1 holds the thumbnail.
final class ExifEditTests: XCTestCase {
    /// A block in either byte order: IFD0 (Make "TestCam" stored outside the entry, orientation 6, the Exif and
    /// GPS pointers), then IFD1 (thumbnail offset and length), the Exif directory (pixel dimensions, one SHORT and
    /// one LONG), the GPS directory (latitude as three RATIONALs outside the entry), and the values.
    struct Built {
        var bytes: [UInt8]
        var thumbnail: Range<Int>
        var latitude: Range<Int>
    }

    static func build(littleEndian little: Bool) -> Built {
        func u16(_ v: Int) -> [UInt8] { little ? [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] : [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { little ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
            u16(tag) + u16(type) + u32(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
        }
        // Offsets: IFD0 at 8 (4 entries: 2 + 48 + 4 = 54 bytes) → IFD1 at 62 (2 entries: 30) → Exif IFD at 92
        // (2 entries: 30) → GPS IFD at 122 (2 entries: 30) → values at 152: "TestCam\0" (8), latitude (24),
        // thumbnail (16).
        let make = 152, latitude = 160, thumbnail = 184
        var b = (little ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
        b += u16(4) + entry(0x010F, 2, 8, u32(make)) + entry(0x0112, 3, 1, u16(6))
            + entry(0x8769, 4, 1, u32(92)) + entry(0x8825, 4, 1, u32(122)) + u32(62)
        b += u16(2) + entry(0x0201, 4, 1, u32(thumbnail)) + entry(0x0202, 4, 1, u32(16)) + u32(0)
        b += u16(2) + entry(0xA002, 3, 1, u16(4000)) + entry(0xA003, 4, 1, u32(3000)) + u32(0)
        b += u16(2) + entry(0x0001, 2, 2, Array("N\0".utf8)) + entry(0x0002, 5, 3, u32(latitude)) + u32(0)
        precondition(b.count == make)
        b += Array("TestCam\0".utf8)
        b += u32(48) + u32(1) + u32(51) + u32(1) + u32(2376) + u32(100)
        b += [UInt8](0xD8...0xE7)
        return Built(bytes: b.map { UInt8($0) }, thumbnail: thumbnail..<(thumbnail + 16), latitude: latitude..<(latitude + 24))
    }

    /// Reads entries back with an independent, plain walk of the structure.
    struct Reader {
        let b: [UInt8]
        var little: Bool { b[0] == 0x49 }
        func u16(_ at: Int) -> Int { little ? Int(b[at]) | Int(b[at + 1]) << 8 : Int(b[at]) << 8 | Int(b[at + 1]) }
        func u32(_ at: Int) -> Int { little ? u16(at) | u16(at + 2) << 16 : u16(at) << 16 | u16(at + 2) }
        func entries(_ ifd: Int) -> [Int: (type: Int, value: Int)] {
            var out = [Int: (type: Int, value: Int)]()
            for i in 0..<u16(ifd) {
                let at = ifd + 2 + i * 12
                out[u16(at)] = (u16(at + 2), u16(at + 2) == 3 ? u16(at + 8) : u32(at + 8))
            }
            return out
        }
        var ifd0: Int { u32(4) }
        var next: Int { u32(ifd0 + 2 + u16(ifd0) * 12) }
    }

    func testKeepingTurnsUprightDropsTheThumbnailAndUpdatesTheDimensions() throws {
        for little in [true, false] {
            let built = Self.build(littleEndian: little)
            let edited = try XCTUnwrap(Exif.edited(built.bytes, width: 640, height: 480, upright: true, stripLocation: false))
            XCTAssertEqual(edited.count, built.bytes.count, "edited in place")
            let r = Reader(b: edited)
            let ifd0 = r.entries(r.ifd0)
            XCTAssertEqual(ifd0[0x0112]?.value, 1, "orientation")
            XCTAssertEqual(Exif.orientation(edited), 1)
            XCTAssertEqual(r.next, 0, "IFD1 unlinked")
            XCTAssertEqual(Array(edited[built.thumbnail]), [UInt8](repeating: 0, count: 16), "thumbnail erased")
            let exif = r.entries(try XCTUnwrap(ifd0[0x8769]).value)
            XCTAssertEqual(exif[0xA002]?.value, 640)
            XCTAssertEqual(exif[0xA003]?.value, 480)
            XCTAssertEqual(String(decoding: edited[152..<159], as: UTF8.self), "TestCam", "other values kept")
            XCTAssertEqual(Array(edited[built.latitude]), Array(built.bytes[built.latitude]), "location kept")
            XCTAssertNotNil(ifd0[0x8825])
        }
    }

    func testStrippingLocationUnlinksAndErasesTheGPSDirectory() throws {
        for little in [true, false] {
            let built = Self.build(littleEndian: little)
            let edited = try XCTUnwrap(Exif.edited(built.bytes, width: 640, height: 480, upright: true, stripLocation: true))
            let r = Reader(b: edited)
            let ifd0 = r.entries(r.ifd0)
            XCTAssertNil(ifd0[0x8825], "GPS pointer gone")
            XCTAssertEqual(r.u16(r.ifd0), 3)
            XCTAssertEqual(Set(ifd0.keys), [0x010F, 0x0112, 0x8769])
            XCTAssertEqual(r.next, 0, "the next-directory offset moved up with the entries")
            XCTAssertEqual(Array(edited[built.latitude]), [UInt8](repeating: 0, count: 24), "coordinates erased")
            XCTAssertEqual(Array(edited[122..<152]), [UInt8](repeating: 0, count: 30), "GPS directory erased")
        }
    }

    /// Without autorotation the pixels keep their stored orientation, so the tag stays true as it is.
    func testTheOrientationStaysWhenThePixelsWereNotTurned() throws {
        let edited = try XCTUnwrap(Exif.edited(Self.build(littleEndian: true).bytes, width: 1, height: 1, upright: false,
                                               stripLocation: false))
        XCTAssertEqual(Exif.orientation(edited), 6)
    }

    /// Every truncation and a sweep of single-byte damage: an answer or nil, never a crash or a read outside.
    func testDamagedBlocksNeverStopTheRender() {
        let bytes = Self.build(littleEndian: true).bytes
        for n in 0..<bytes.count { _ = Exif.edited(Array(bytes[..<n]), width: 9, height: 9, upright: true, stripLocation: true) }
        for i in 0..<bytes.count {
            for value: UInt8 in [0x00, 0x7F, 0xFF] {
                var damaged = bytes
                damaged[i] = value
                _ = Exif.edited(damaged, width: 9, height: 9, upright: true, stripLocation: true)
            }
        }
        XCTAssertNil(Exif.edited(Array("not a tiff".utf8), width: 1, height: 1, upright: true, stripLocation: false))
    }

    /// The fields a TIFF writer rewrites one by one: each with its directory and its values from wherever the block
    /// keeps them (inside the entry or after it), in both byte orders; pointers and the thumbnail's directory are not
    /// fields. Cut or damaged blocks give fewer fields, each still the size its type and count say, never a trap.
    func testFieldsAreReadWithTheirValues() throws {
        for little in [true, false] {
            let built = Self.build(littleEndian: little)
            let (bigEndian, fields) = try XCTUnwrap(Exif.fields(built.bytes))
            XCTAssertEqual(bigEndian, !little)
            XCTAssertEqual(fields.map { [$0.directory.rawValue, Int32($0.tag)] },
                           [[0, 0x010F], [0, 0x0112], [1, 0xA002], [1, 0xA003], [2, 0x0001], [2, 0x0002]])
            XCTAssertEqual(fields[0].bytes, Array("TestCam\0".utf8))
            XCTAssertEqual(fields[5].bytes, Array(built.bytes[built.latitude]))
            XCTAssertEqual(fields[4].bytes, Array("N\0".utf8))
            XCTAssertEqual(fields[1].bytes, little ? [6, 0] : [0, 6])
        }
        let sizes = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4]
        let bytes = Self.build(littleEndian: true).bytes
        for n in 0..<bytes.count {
            for field in Exif.fields(Array(bytes[..<n]))?.fields ?? [] { XCTAssertEqual(field.bytes.count, field.count * sizes[field.type]) }
        }
        for i in 0..<bytes.count {
            for value: UInt8 in [0x00, 0x7F, 0xFF] {
                var damaged = bytes
                damaged[i] = value
                for field in Exif.fields(damaged)?.fields ?? [] { XCTAssertEqual(field.bytes.count, field.count * sizes[field.type]) }
            }
        }
        XCTAssertNil(Exif.fields(Array("not a tiff".utf8)))
        // A block made from fields reads back as those fields (the pointers between directories made anew).
        for little in [true, false] {
            let (bigEndian, fields) = try XCTUnwrap(Exif.fields(Self.build(littleEndian: little).bytes))
            let made = Exif.block(fields, bigEndian: bigEndian)
            let again = try XCTUnwrap(Exif.fields(made))
            XCTAssertEqual(again.bigEndian, bigEndian)
            XCTAssertEqual(again.fields, fields)
            XCTAssertEqual(Exif.orientation(made), 6)
            XCTAssertEqual(Reader(b: made).next, 0, "no thumbnail directory")
        }
    }

    func testXMPPropertiesAreRewrittenInBothForms() throws {
        let packet = #"<x:xmpmeta><rdf:RDF><rdf:Description tiff:Orientation="6" exif:PixelXDimension="4000">"#
            + "<exif:PixelYDimension>3000</exif:PixelYDimension><dc:creator>A</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>"
        let edited = try XCTUnwrap(XMP.edited(Array(packet.utf8), width: 640, height: 480, upright: true, stripLocation: true))
        let text = String(decoding: edited, as: UTF8.self)
        XCTAssertTrue(text.contains(#"tiff:Orientation="1""#), text)
        XCTAssertTrue(text.contains(#"exif:PixelXDimension="640""#), text)
        XCTAssertTrue(text.contains("<exif:PixelYDimension>480</exif:PixelYDimension>"), text)
        XCTAssertTrue(text.contains("<dc:creator>A</dc:creator>"), text)
        let located = packet.replacingOccurrences(of: "<dc:creator>", with: #"<exif:GPSLatitude>48,51.4N</exif:GPSLatitude><dc:creator>"#)
        XCTAssertNil(XMP.edited(Array(located.utf8), width: 1, height: 1, upright: true, stripLocation: true),
                     "a packet with GPS properties is dropped under stripLocation")
        XCTAssertNotNil(XMP.edited(Array(located.utf8), width: 1, height: 1, upright: true, stripLocation: false))
    }
}
