@testable import FilterRecipe
import FilterCore
import Foundation
import TestSupport
import XCTest

/// The codec registry (`ImageFileFormat.codecs`): every format registered once, its codec's facts consistent, the
/// docs' format table in step with it, and the renderer's format knowledge coming from it.
final class CodecRegistryTests: XCTestCase {
    func testEveryFormatIsRegisteredOnceAndKnowsItself() throws {
        XCTAssertEqual(Set(ImageFileFormat.codecs.keys), Set(ImageFileFormat.allCases))
        var extensions = Set<String>()
        for format in ImageFileFormat.allCases {
            let codec = format.codec
            XCTAssertEqual(codec.word, format.rawValue)
            XCTAssertFalse(codec.extensions.isEmpty, format.name)
            for ext in codec.extensions { XCTAssertTrue(extensions.insert(ext).inserted, "\(ext) names two formats") }
            XCTAssertTrue(codec.mediaType.hasPrefix("image/"), format.name)
            XCTAssertEqual(ImageFileFormat(word: format.rawValue), format)
            XCTAssertEqual(ImageFileFormat.from(extensionOf: "x." + codec.extensions[0].uppercased()), format)
            // A format whose animations are written reads them too; a format not written writes no animation.
            if format.writesAnimations { XCTAssertNotNil(codec.animationHeadBytes, format.name) }
            if !format.isWritten { XCTAssertFalse(format.writesAnimations, format.name) }
        }
        XCTAssertEqual(ImageFileFormat.writtenCases.filter(\.writesAnimations).map(\.name).sorted(), ["AVIF", "GIF", "JPEG XL", "WebP"])
        XCTAssertEqual(ImageFileFormat.allCases.filter(\.takesQuality).map(\.name).sorted(), ["AVIF", "JPEG", "JPEG XL", "WebP"])
    }

    /// Each fixture of each format is told by its codec's signature alone, and by no other codec's.
    func testEachFixtureIsRecognisedByItsCodecAlone() throws {
        let fixtures: [ImageFileFormat: String] = [
            .png: "pngsuite/basn2c08.png", .jpeg: "jpeg/" + (try firstFixture("jpeg", ext: "jpg")),
            .webp: "webp/" + (try firstFixture("webp", ext: "webp")), .tiff: "tiff/" + (try firstFixture("tiff", ext: "tif")),
            .avif: "heif/" + (try firstFixture("heif", ext: "avif")), .heic: "heif/" + (try firstFixture("heif", ext: "heic")),
            .gif: "gif/global_96x64.gif", .jxl: "jxl/" + (try firstFixture("jxl", ext: "jxl")),
        ]
        for (format, path) in fixtures {
            let head = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path(path))).prefix(16))
            let recognising = ImageFileFormat.allCases.filter { $0.codec.recognises(head) }
            XCTAssertEqual(recognising, [format], path)
        }
    }

    func firstFixture(_ folder: String, ext: String) throws -> String {
        try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: Fixtures.path(folder))
            .filter { $0.hasSuffix("." + ext) }.sorted().first, folder)
    }

    /// docs/formats.md has one row a format, in the registry's names, and says "not written" exactly where the
    /// registry does.
    func testTheDocsFormatTableFollowsTheRegistry() throws {
        let text = try String(contentsOf: Fixtures.repository.appendingPathComponent("docs/formats.md"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| format") }
        var named = [ImageFileFormat]()
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let format = ImageFileFormat.allCases.first(where: { cells[0].hasPrefix($0.name + " (") }) else { continue }
            named.append(format)
            XCTAssertEqual(cells.last?.hasPrefix("not written") == true, !format.isWritten, format.name)
        }
        XCTAssertEqual(Set(named), Set(ImageFileFormat.allCases))
        XCTAssertEqual(named.count, ImageFileFormat.allCases.count)
    }

    /// What the renderer asks of a format is what its codec says: the output notes and the animation costs.
    func testTheRendererReadsTheCodecs() throws {
        var options = Renderer.Options()
        XCTAssertNotNil(ImageFileFormat.jpeg.codec.writeOptions(options).reducedToEightBitsNote)
        XCTAssertNotNil(ImageFileFormat.jpeg.codec.writeOptions(options).flattenedAlphaNote)
        XCTAssertNil(ImageFileFormat.png.codec.writeOptions(options).reducedToEightBitsNote)
        XCTAssertNotNil(ImageFileFormat.avif.codec.writeOptions(options).reducedToEightBitsNote)
        options.avif.bitDepth = 10
        XCTAssertNil(ImageFileFormat.avif.codec.writeOptions(options).reducedToEightBitsNote)
        options.webp.lossless = true
        XCTAssertEqual(ImageFileFormat.webp.codec.writeOptions(options).codedBytesPerPixel, 4)
        XCTAssertEqual(ImageFileFormat.gif.codec.writeOptions(options).codedBytesPerPixel, 0)
        options.setQuality(33)
        XCTAssertEqual([options.jpeg.quality, options.webp.quality, options.avif.quality, options.jxl.quality], [33, 33, 33, 33])
        XCTAssertEqual(ImageFileFormat.heic.notWrittenReason?.contains("write AVIF"), true)
    }
}
