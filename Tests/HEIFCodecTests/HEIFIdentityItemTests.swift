import FilterCore
import Foundation
@testable import HEIFCodec
import TestSupport
import XCTest

/// Identity-derived items (`iden`), which libheif 1.15 neither decodes nor opens a file holding: the fixtures
/// (scripts/make-heif-fixtures.py, laid out as heif_conformance's C008, C014 and C023) decode to the coded item's
/// own pixels — the same HEVC picture decoded plainly — moved by the identity's transforms as ISO/IEC 23008-12
/// defines them, worked out here by hand; files that cannot be resolved are refused, never trapped.
/// (libheif 1.23.7, the reference the conformance script names, gives these sizes and C008/C014/C023 bit-exactly.)
final class HEIFIdentityItemTests: XCTestCase {
    func fixture(_ name: String) -> String { Fixtures.path("heif/" + name) }

    /// An interleaved 8-bit picture.
    struct Picture: Equatable {
        var width: Int, height: Int, channels: Int
        var samples: [UInt8]

        func pixel(_ x: Int, _ y: Int) -> ArraySlice<UInt8> {
            samples[((y * width + x) * channels)..<((y * width + x + 1) * channels)]
        }

        /// A new picture whose pixel (x, y) is this one's at `from(x, y)`.
        func remapped(width: Int, height: Int, _ from: (Int, Int) -> (Int, Int)) -> Picture {
            var out = [UInt8]()
            for y in 0..<height { for x in 0..<width { let (sx, sy) = from(x, y); out += pixel(sx, sy) } }
            return Picture(width: width, height: height, channels: channels, samples: out)
        }
        /// A quarter turn anticlockwise (irot 1): the top row becomes the left column, read upwards.
        var turnedAnticlockwise: Picture { remapped(width: height, height: width) { x, y in (width - 1 - y, x) } }
        var mirroredLeftRight: Picture { remapped(width: width, height: height) { x, y in (width - 1 - x, y) } }
        func cropped(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int) -> Picture { remapped(width: w, height: h) { x, y in (x0 + x, y0 + y) } }
    }

    func decode(_ name: String) throws -> Picture {
        let decoder = try HEIFDecoder(path: fixture(name))
        let samples = [UInt8](try decoder.readAll().packedData())
        return Picture(width: decoder.width, height: decoder.height, channels: decoder.format.channels, samples: samples)
    }

    func testIdentityItemsDecodeToTheirSourceMovedByTheirTransforms() throws {
        let plain = try decode("heic_q80_96x64.heic")
        // clap 48×40, centre offset (6, −4/2) on 96×64: left = 6 + 95/2 − 47/2 = 30 (rounded down), top = −2 + 63/2 −
        // 39/2 = 10 (to nearest); then a quarter turn anticlockwise: 40×48.
        let clapped = try decode("heic_iden_clap_irot_40x48.heic")
        XCTAssertEqual([clapped.width, clapped.height], [40, 48])
        XCTAssertEqual(clapped, plain.cropped(30, 10, 48, 40).turnedAnticlockwise)
        // The source's own quarter turn (libheif's), then the identity's mirror (imir axis 1: left and right) and
        // half turn, in that order. The colour item is heic_alpha's, alpha aside.
        let withAlpha = try decode("heic_alpha_96x64.heic")
        let colour = Picture(width: 96, height: 64, channels: 3,
                             samples: (0..<(96 * 64)).flatMap { withAlpha.samples[($0 * 4)..<($0 * 4 + 3)] })
        let mirrored = try decode("heic_iden_mirror_64x96.heic")
        XCTAssertEqual(mirrored, colour.turnedAnticlockwise.mirroredLeftRight.turnedAnticlockwise.turnedAnticlockwise)
        // A plain primary beside hidden identities and a hidden grid of them (C023's layout): the primary as it is.
        XCTAssertEqual(try decode("heic_iden_beside_96x64.heic"), plain)
    }

    func testIdentityItemsTheReaderCannotResolveAreRefusedByName() throws {
        // An alpha image of the identity: refused, not decoded without (or under the wrong transforms).
        XCTAssertThrowsError(try HEIFDecoder(path: fixture("heic_iden_alpha_64x96.heic"))) { error in
            XCTAssertEqual((error as? CodecError)?.kind, .unsupported)
            XCTAssertTrue("\(error)".contains("identity-derived image with an auxiliary image"), "\(error)")
        }
        // Made-up files: an identity of a missing item, one with no source, and two naming each other.
        func box(_ kind: String, _ body: [UInt8]) -> [UInt8] {
            let size = 8 + body.count
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(kind.utf8) + body
        }
        func file(_ types: [String], references: [(Int, Int)]) -> [UInt8] {
            let infes = types.enumerated().flatMap { i, type in box("infe", [2, 0, 0, 0, 0, UInt8(i + 1), 0, 0] + Array(type.utf8) + [0]) }
            let iinf = box("iinf", [0, 0, 0, 0, 0, UInt8(types.count)] + infes)
            let iref = box("iref", [0, 0, 0, 0] + references.flatMap { from, to in box("dimg", [0, UInt8(from), 0, 1, 0, UInt8(to)]) })
            return box("ftyp", Array("heicmif1".utf8)) + box("meta", [0, 0, 0, 0] + box("pitm", [0, 0, 0, 0, 0, 1]) + iinf + iref)
        }
        let cases: [([String], [(Int, Int)], String)] = [
            (["iden"], [(1, 2)], "not in the file"),
            (["iden", "hvc1"], [], "does not name one item"),
            (["iden", "iden"], [(1, 2), (2, 1)], "loop"),
        ]
        for (types, references, words) in cases {
            XCTAssertThrowsError(try HEIFIdentityItems.resolve(file(types, references: references)), words) { error in
                let refusal = error as? HEIFIdentityItems.Refusal
                XCTAssertEqual(refusal?.unsupported, false)
                XCTAssertTrue(refusal?.message.contains(words) ?? false, "\(error)")
            }
        }
        // A chain of two identities (HEIF allows it; MIAF does not) resolves to the coded item, both identities' transforms in order.
        let chain = try XCTUnwrap(try HEIFIdentityItems.resolve(file(["iden", "iden", "hvc1"], references: [(1, 2), (2, 3)])))
        XCTAssertEqual(chain.transforms, [])
        XCTAssertEqual(HEIFProperties.primaryItem(chain.bytes)?.primary, 3)
        // A file with no identity is left alone.
        XCTAssertNil(try HEIFIdentityItems.resolve(file(["hvc1"], references: [])))
    }

    func testPixelMapsCompose() {
        let start = HEIFPixelMap(width: 6, height: 4)
        var map: HEIFPixelMap? = start
        for _ in 0..<4 { map = map?.applying(.rotation(quarterTurns: 1)) }
        XCTAssertEqual(map, start, "four quarter turns")
        XCTAssertEqual(start.applying(.rotation(quarterTurns: 1))?.applying(.rotation(quarterTurns: 3)), start)
        XCTAssertEqual(start.applying(.mirror(leftRight: true))?.applying(.mirror(leftRight: true)), start)
        XCTAssertEqual(start.applying(.mirror(leftRight: false))?.applying(.mirror(leftRight: false)), start)
        // A half turn is both mirrors.
        XCTAssertEqual(start.applying(.rotation(quarterTurns: 2)), start.applying(.mirror(leftRight: true))?.applying(.mirror(leftRight: false)))
        // A quarter turn anticlockwise: the output's top-left pixel is the input's top-right one.
        let turned = start.applying(.rotation(quarterTurns: 1))!
        XCTAssertEqual([turned.width, turned.height], [4, 6])
        XCTAssertTrue(turned.source(x: 0, y: 0) == (5, 0) && turned.source(x: 3, y: 5) == (0, 3))
        // Clean apertures: a denominator of zero, one larger than the picture (clamped, as libheif does) and one
        // whose figures overflow.
        func clap(_ w: Int, _ wd: Int, _ h: Int, _ ho: Int = 0, _ hd: Int = 1) -> HEIFTransform {
            .crop(CleanAperture(width: (w, wd), height: (h, 1), horizontalOffset: (ho, hd), verticalOffset: (0, 1)))
        }
        XCTAssertNil(start.applying(clap(2, 0, 2)))
        XCTAssertEqual(start.applying(clap(60, 1, 40)), start)
        XCTAssertNil(start.applying(clap(Int(UInt32.max), 1, 2, 0, Int(UInt32.max))))
        XCTAssertNil(start.applying(clap(2, 1, 2, -100)), "an aperture wholly outside the picture leaves nothing")
    }

    func testEveryComposedMapStaysInsideThePicture() {
        // 2000 random chains of turns, mirrors and clean apertures on random sizes: every output corner (so every
        // pixel: the map is affine) reads inside the decoded picture, as the row gather assumes.
        var random = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let (w, h) = (1 + Int(random.next() % 40), 1 + Int(random.next() % 40))
            var map: HEIFPixelMap? = HEIFPixelMap(width: w, height: h)
            for _ in 0..<(1 + Int(random.next() % 5)) {
                let pick = Int(random.next() % 3), n = { Int(random.next() % 50) - 10 }
                let transform: HEIFTransform = pick == 0 ? .rotation(quarterTurns: Int(random.next() % 4))
                    : pick == 1 ? .mirror(leftRight: random.next() % 2 == 0)
                    : .crop(CleanAperture(width: (max(1, n()), 1 + Int(random.next() % 3)), height: (max(1, n()), 1),
                                          horizontalOffset: (n(), 1 + Int(random.next() % 4)), verticalOffset: (n(), 2)))
                map = map?.applying(transform)
            }
            guard let map else { continue }
            XCTAssertTrue(map.width >= 1 && map.height >= 1)
            for (x, y) in [(0, 0), (map.width - 1, 0), (0, map.height - 1), (map.width - 1, map.height - 1)] {
                let at = map.source(x: x, y: y)
                XCTAssertTrue((0..<w).contains(at.x) && (0..<h).contains(at.y), "\(map) at (\(x), \(y)) reads \(at) of \(w)×\(h)")
            }
        }
    }

    func testDamagedIdentityFilesAreErrorsNeverTraps() throws {
        // Every byte of the meta box stomped in turn and every truncation: decoded or refused with a CodecError.
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture("heic_iden_clap_irot_40x48.heic"))))
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("damaged.heic").path
        var variants: [[UInt8]] = stride(from: 0, to: 460, by: 1).map { at in var b = whole; b[at] ^= 0xFF; return b }
        variants += stride(from: 8, to: whole.count, by: 97).map { Array(whole.prefix($0)) }
        for bytes in variants {
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            do { _ = try HEIFDecoder(path: path).readAll() } catch let error as CodecError { _ = error } catch {
                XCTFail("\(error)")
            }
        }
    }
}
