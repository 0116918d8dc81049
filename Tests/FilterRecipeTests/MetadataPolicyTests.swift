import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// The metadata policy end to end: a phone-like JPEG (orientation 6, GPS, an embedded thumbnail, XMP with a
/// creator) rendered to JPEG, PNG, WebP, AVIF and JPEG XL. By default the output carries no EXIF or XMP; `.keep` carries them
/// edited for the output; `.keepWithoutLocation` drops the location. ExifTool (Debian's libimage-exiftool-perl)
/// reads the outputs independently.
final class MetadataPolicyTests: XCTestCase {
    let photo = try! Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/metadata_gps_thumbnail_orientation6.jpg")))
    let recipe = Recipe.chain([(.exposure, ["ev": 0.2])])

    func render(_ policy: MetadataPolicy, as format: ImageFileFormat) throws -> (Data, [String]) {
        let renderer = Renderer(backend: .cpu, options: Renderer.Options(metadata: policy))
        let (data, report) = try renderer.render(recipe, encoded: ["main": photo], as: format)
        return (data, report.warnings)
    }

    /// ExifTool's reading of `data` (group-qualified tag names, numbers as numbers), or a skip when it is absent.
    func exiftool(_ data: Data, _ format: ImageFileFormat) throws -> [String: Any] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool") else {
            throw XCTSkip("exiftool (Debian's libimage-exiftool-perl) is not installed")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("metadata-\(UUID()).\(format.extensions[0])")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process(), pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = ["-j", "-G1", "-n", "-a", file.path]
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
        return try XCTUnwrap(list.first)
    }

    func testTheInputCarriesWhatTheTestsLookFor() throws {
        let tags = try exiftool(photo, .jpeg)
        XCTAssertEqual(tags["IFD0:Orientation"] as? Int, 6)
        XCTAssertNotNil(tags["GPS:GPSLatitude"])
        XCTAssertNotNil(tags["IFD1:ThumbnailLength"])
        XCTAssertEqual(tags["XMP-dc:Creator"] as? String, "Someone")
    }

    func testOutputsCarryNoExifOrXMPByDefault() throws {
        for format in [ImageFileFormat.jpeg, .png, .webp, .avif, .jxl] {
            let (out, _) = try render(.strip, as: format)
            XCTAssertNil(out.range(of: Data("TestCam".utf8)), "\(format): no EXIF")
            XCTAssertNil(out.range(of: Data("Someone".utf8)), "\(format): no XMP")
            let tags = try exiftool(out, format)
            XCTAssertFalse(tags.keys.contains { $0.hasPrefix("GPS:") || $0.hasPrefix("IFD0:") || $0.hasPrefix("XMP") }, "\(format): \(tags.keys.sorted())")
        }
    }

    func testKeepingCopiesExifAndXMPEditedForTheOutput() throws {
        for format in [ImageFileFormat.jpeg, .png, .webp, .avif, .jxl] {
            let (out, warnings) = try render(.keep, as: format)
            XCTAssertEqual(warnings, [], "\(format)")
            let tags = try exiftool(out, format)
            XCTAssertEqual(tags["IFD0:Make"] as? String, "TestCam", "\(format)")
            XCTAssertEqual(tags["IFD0:Orientation"] as? Int, 1, "\(format): the pixels were turned upright")
            XCTAssertEqual(tags["XMP-tiff:Orientation"] as? Int, 1, "\(format)")
            // The input is 400×225 stored, turned a quarter by its orientation: the output is 225×400.
            XCTAssertEqual(tags["ExifIFD:ExifImageWidth"] as? Int, 225, "\(format)")
            XCTAssertEqual(tags["ExifIFD:ExifImageHeight"] as? Int, 400, "\(format)")
            XCTAssertNil(tags["IFD1:ThumbnailLength"], "\(format): thumbnail dropped")
            XCTAssertNotNil(tags["GPS:GPSLatitude"], "\(format): location kept when asked to keep everything")
            XCTAssertEqual(tags["XMP-dc:Creator"] as? String, "Someone", "\(format)")
            XCTAssertNil(tags["ExifTool:Warning"], "\(format): \(tags["ExifTool:Warning"] ?? "")")
        }
    }

    func testStrippingLocationLeavesNoCoordinates() throws {
        for format in [ImageFileFormat.jpeg, .png, .webp, .avif, .jxl] {
            let (out, _) = try render(.keepWithoutLocation, as: format)
            let tags = try exiftool(out, format)
            XCTAssertEqual(tags["IFD0:Make"] as? String, "TestCam", "\(format)")
            XCTAssertFalse(tags.keys.contains { $0.hasPrefix("GPS:") || $0.contains("GPS") }, "\(format): \(tags.keys.sorted())")
            XCTAssertNil(tags["ExifTool:Warning"], "\(format): \(tags["ExifTool:Warning"] ?? "")")
        }
    }

    /// A PNG's XMP (an iTXt chunk keyed XML:com.adobe.xmp, as written or zlib-compressed) travels on to the output;
    /// a damaged one, or one under another keyword, is dropped without stopping the render.
    func testPNGInputsGiveTheirXMP() throws {
        let (png, _) = try render(.keep, as: .png)
        let (kept, _) = try Renderer(backend: .cpu, options: Renderer.Options(metadata: .keep))
            .render(recipe, encoded: ["main": png], as: .jpeg)
        XCTAssertEqual(try exiftool(kept, .jpeg)["XMP-dc:Creator"] as? String, "Someone", "uncompressed iTXt")

        let packet = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>Compressed</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>"#.utf8)
        let (plain, _) = try render(.strip, as: .png)
        func withText(_ keyword: String, _ body: [UInt8]) -> Data {
            var bytes = [UInt8](plain)
            bytes.insert(contentsOf: PNGChunks.chunk("iTXt", Array(keyword.utf8) + [0] + body), at: 33)  // after IHDR
            return Data(bytes)
        }
        let cases: [(String, Data, String?)] = [
            ("compressed", withText("XML:com.adobe.xmp", [1, 0, 0, 0] + (try PNGChunks.zlib(packet))), "Compressed"),
            ("damaged", withText("XML:com.adobe.xmp", [1, 0, 0, 0, 0x78, 0x9C, 1, 2, 3]), nil),
            ("another keyword", withText("Comment", [0, 0, 0, 0] + packet), nil),
        ]
        for (label, input, creator) in cases {
            let (out, _) = try Renderer(backend: .cpu, options: Renderer.Options(metadata: .keep))
                .render(recipe, encoded: ["main": input], as: .jpeg)
            XCTAssertEqual(try exiftool(out, .jpeg)["XMP-dc:Creator"] as? String, creator, label)
        }
    }

    /// TIFF carries XMP both ways (the XMLPacket tag, edited for the output like every XMP) and EXIF both ways: out,
    /// rewritten field by field into the file's own directories (the camera's text in the image's directory, the
    /// Exif and GPS directories linked from it; GPS dropped without the location, no thumbnail, orientation
    /// upright); in, gathered from those directories into an Exif block that other formats carry.
    func testTIFFCarriesExifAndXMP() throws {
        let (tiff, warnings) = try render(.keep, as: .tiff)
        XCTAssertFalse(warnings.contains { $0.contains("EXIF") }, "\(warnings)")
        let tags = try exiftool(tiff, .tiff)
        XCTAssertEqual(tags["XMP-dc:Creator"] as? String, "Someone")
        XCTAssertEqual(tags["XMP-tiff:Orientation"] as? Int, 1)
        XCTAssertEqual(tags["IFD0:Make"] as? String, "TestCam")
        XCTAssertEqual(tags["IFD0:Model"] as? String, "X1")
        XCTAssertEqual(tags["IFD0:Orientation"] as? Int, 1)
        XCTAssertEqual(tags["ExifIFD:ExifVersion"] as? String, "0232")
        XCTAssertEqual(tags["ExifIFD:ColorSpace"] as? Int, 65535)
        XCTAssertEqual(tags["GPS:GPSLatitude"] as? Double ?? 0, 48.8566, accuracy: 0.0001)
        XCTAssertEqual(tags["GPS:GPSLongitudeRef"] as? String, "E")
        XCTAssertNil(tags["IFD1:ThumbnailLength"])
        XCTAssertNil(tags["ExifTool:Warning"], "\(tags["ExifTool:Warning"] ?? "")")
        let (located, _) = try render(.keepWithoutLocation, as: .tiff)
        let withoutLocation = try exiftool(located, .tiff)
        XCTAssertFalse(withoutLocation.keys.contains { $0.hasPrefix("GPS:") }, "\(withoutLocation.keys.sorted())")
        XCTAssertEqual(withoutLocation["IFD0:Make"] as? String, "TestCam")
        // A TIFF input gives its XMP and its Exif: its own text fields and its Exif and GPS directories.
        let (jpeg, _) = try Renderer(backend: .cpu, options: Renderer.Options(metadata: .keep))
            .render(recipe, encoded: ["main": tiff], as: .jpeg)
        let back = try exiftool(jpeg, .jpeg)
        XCTAssertEqual(back["XMP-dc:Creator"] as? String, "Someone", "a TIFF input gives its XMP")
        XCTAssertEqual(back["IFD0:Make"] as? String, "TestCam")
        XCTAssertEqual(back["ExifIFD:ExifVersion"] as? String, "0232")
        XCTAssertEqual(back["GPS:GPSLatitude"] as? Double ?? 0, 48.8566, accuracy: 0.0001)
        XCTAssertNil(back["ExifTool:Warning"], "\(back["ExifTool:Warning"] ?? "")")
        let (unlocated, _) = try Renderer(backend: .cpu, options: Renderer.Options(metadata: .keepWithoutLocation))
            .render(recipe, encoded: ["main": tiff], as: .png)
        let png = try exiftool(unlocated, .png)
        XCTAssertEqual(png["IFD0:Make"] as? String, "TestCam")
        XCTAssertFalse(png.keys.contains { $0.hasPrefix("GPS:") }, "\(png.keys.sorted())")
        let (stripped, _) = try render(.strip, as: .tiff)
        XCTAssertNil(stripped.range(of: Data("Someone".utf8)))
        XCTAssertNil(stripped.range(of: Data("TestCam".utf8)))
    }

    /// GIF carries XMP (in its application extension) but has no place for EXIF: kept, ExifTool reads the creator and
    /// no camera fields, and a note says the EXIF was left out; a GIF input gives its XMP back.
    func testGIFCarriesXMP() throws {
        let (gif, warnings) = try render(.keep, as: .gif)
        XCTAssertTrue(warnings.contains { $0.contains("EXIF is left out") }, "\(warnings)")
        let tags = try exiftool(gif, .gif)
        XCTAssertEqual(tags["XMP-dc:Creator"] as? String, "Someone")
        XCTAssertNil(tags["ExifTool:Warning"], "\(tags["ExifTool:Warning"] ?? "")")
        XCTAssertFalse(tags.keys.contains { $0.hasPrefix("IFD0:") || $0.hasPrefix("GPS:") }, "\(tags.keys.sorted())")
        let (png, _) = try Renderer(backend: .cpu, options: Renderer.Options(metadata: .keep)).render(recipe, encoded: ["main": gif], as: .png)
        XCTAssertEqual(try exiftool(png, .png)["XMP-dc:Creator"] as? String, "Someone")
        let (stripped, _) = try render(.strip, as: .gif)
        XCTAssertNil(stripped.range(of: Data("Someone".utf8)))
    }

    /// XMP over one JPEG segment, as exiftool writes it (a standard packet naming an extension, the extension in two
    /// chunks): kept, a JPEG output carries the standard packet and the extension under the same GUID (the extension
    /// unchanged, so its MD5 still names it); the other formats one packet with both merged. ExifTool reads the
    /// 72 000-character description back whole from each; by default nothing is carried.
    func testExtendedXMPIsReassembledAndCarried() throws {
        let input = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/extended_xmp.jpg")))
        let original = try exiftool(input, .jpeg)
        let description = try XCTUnwrap(original["XMP-dc:Description"] as? String)
        XCTAssertEqual(description.count, 72_000)
        let guid = try XCTUnwrap(original["XMP-xmpNote:HasExtendedXMP"] as? String)
        for format in [ImageFileFormat.jpeg, .png, .webp, .tiff, .avif, .jxl] {
            let (out, report) = try Renderer(backend: .cpu, options: Renderer.Options(metadata: .keep))
                .render(recipe, encoded: ["main": input], as: format)
            XCTAssertFalse(report.warnings.contains { $0.contains("XMP") }, "\(format): \(report.warnings)")
            let tags = try exiftool(out, format)
            XCTAssertEqual(tags["XMP-dc:Description"] as? String, description, "\(format)")
            XCTAssertEqual(tags["XMP-dc:Title"] as? String, "Extended", "\(format)")
            XCTAssertEqual(tags["XMP-xmpNote:HasExtendedXMP"] as? String, format == .jpeg ? guid : nil, "\(format)")
            XCTAssertNil(tags["ExifTool:Warning"], "\(format): \(tags["ExifTool:Warning"] ?? "")")
        }
        let (stripped, _) = try Renderer(backend: .cpu).render(recipe, encoded: ["main": input], as: .jpeg)
        XCTAssertNil(stripped.range(of: Data("Extended".utf8)))
        XCTAssertNil(stripped.range(of: Data("00001;".utf8)))
    }

    /// A JPEG XL input gives its Exif and XMP boxes (Brotli-compressed ones decompressed): what a kept JPEG XL
    /// output carried comes back out of it.
    func testJXLInputGivesItsExifAndXMP() throws {
        let (jxl, _) = try render(.keep, as: .jxl)
        let (jpeg, _) = try Renderer(backend: .cpu, options: Renderer.Options(metadata: .keep))
            .render(recipe, encoded: ["main": jxl], as: .jpeg)
        let tags = try exiftool(jpeg, .jpeg)
        XCTAssertEqual(tags["IFD0:Make"] as? String, "TestCam")
        XCTAssertEqual(tags["XMP-dc:Creator"] as? String, "Someone")
        XCTAssertEqual(tags["GPS:GPSLatitude"] as? Double ?? 0, 48.8566, accuracy: 0.0001)
        XCTAssertEqual(tags["IFD0:Orientation"] as? Int, 1)
        let (plain, _) = try render(.strip, as: .jxl)
        let (none, _) = try Renderer(backend: .cpu, options: Renderer.Options(metadata: .keep))
            .render(recipe, encoded: ["main": plain], as: .jpeg)
        XCTAssertNil(none.range(of: Data("TestCam".utf8)), "a JPEG XL without boxes gives nothing")
    }

    /// HEIF applies its own rotation (irot) whatever the Exif says, so a kept Exif orientation must say upright:
    /// this AVIF's Exif says 6 and it has no irot, so its pixels are stored and shown as they are.
    func testHEIFExifIsCarriedUpright() throws {
        let avif = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("heif/avif_exif6_no_irot_96x64.avif")))
        XCTAssertEqual(try exiftool(avif, .avif)["IFD0:Orientation"] as? Int, 6)
        let renderer = Renderer(backend: .cpu, options: Renderer.Options(metadata: .keep))
        let (out, _) = try renderer.render(recipe, encoded: ["main": avif], as: .jpeg)
        let tags = try exiftool(out, .jpeg)
        XCTAssertEqual(tags["IFD0:Orientation"] as? Int, 1)
        XCTAssertEqual(tags["File:ImageWidth"] as? Int, 96, "not turned")
    }

    /// Animations follow the same policy: an animated WebP given EXIF (a camera make, a location) and XMP by
    /// ExifTool, rendered frame by frame to animated WebP, AVIF, JPEG XL and GIF (XMP only, with a note), read back by
    /// ExifTool; the outputs read as inputs again (the AVIF sequence's items, the GIF's XMP) carry them on.
    func testAnimationsCarryMetadataAsStillsDo() throws {
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("animated.webp").path
        try FileManager.default.copyItem(atPath: Fixtures.path("webp/animated_2frames_96x64.webp"), toPath: input)
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-Make=TestCam", "-GPSLatitude=48.85", "-GPSLatitudeRef=N",
                                          "-XMP-dc:Creator=Someone", input], package: "libimage-exiftool-perl")
        let flip = Recipe.chain([(.flip, [:])])
        for format in [ImageFileFormat.webp, .avif, .gif, .jxl] {
            for policy in MetadataPolicy.allCases {
                let output = scratch.appendingPathComponent("\(policy).\(format.extensions[0])").path
                let renderer = Renderer(backend: .cpu, options: Renderer.Options(metadata: policy))
                let report = try renderer.renderAnimation(flip, inputs: ["main": input], output: output)
                XCTAssertEqual(report.frames, 2)
                let tags = try exiftool(try Data(contentsOf: URL(fileURLWithPath: output)), format)
                let label = "\(format) \(policy)"
                XCTAssertNil(tags["ExifTool:Warning"], "\(label): \(tags["ExifTool:Warning"] ?? "")")
                if policy == .strip {
                    XCTAssertFalse(tags.keys.contains { $0.hasPrefix("GPS:") || $0.hasPrefix("IFD0:") || $0.hasPrefix("XMP") },
                                   "\(label): \(tags.keys.sorted())")
                    XCTAssertEqual(report.warnings, [], label)
                    continue
                }
                XCTAssertEqual(tags["XMP-dc:Creator"] as? String, "Someone", label)
                if format == .gif {
                    XCTAssertNil(tags["IFD0:Make"], label)
                    XCTAssertEqual(report.warnings.count, 1, label)
                    XCTAssertTrue(report.warnings.first?.contains("GIF has no place for EXIF") == true, "\(report.warnings)")
                    continue
                }
                XCTAssertEqual(report.warnings, [], label)
                XCTAssertEqual(tags["IFD0:Make"] as? String, "TestCam", label)
                XCTAssertEqual(tags["GPS:GPSLatitude"] != nil, policy == .keep, "\(label): location")
            }
        }
        // Read back as inputs: the AVIF sequence's EXIF and XMP items, the JPEG XL animation's boxes and the GIF's
        // XMP go on into a WebP.
        for (name, make) in [("keep.avif", "TestCam"), ("keep.jxl", "TestCam"), ("keep.gif", nil)] {
            let again = scratch.appendingPathComponent(name + ".webp").path
            try Renderer(backend: .cpu, options: Renderer.Options(metadata: .keep))
                .renderAnimation(flip, inputs: ["main": scratch.appendingPathComponent(name).path], output: again)
            let tags = try exiftool(try Data(contentsOf: URL(fileURLWithPath: again)), .webp)
            XCTAssertEqual(tags["XMP-dc:Creator"] as? String, "Someone", name)
            XCTAssertEqual(tags["IFD0:Make"] as? String, make, name)
        }
    }
}
