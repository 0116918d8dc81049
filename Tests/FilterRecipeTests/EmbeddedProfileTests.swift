import CLCMS
import ColourProfiles
import FilterCore
import FilterRecipe
import Foundation
import PNGCodec
import TestSupport
import XCTest

/// Embedded profiles the reliability review found mishandled: "XYZ LUT + matrix" profiles take the LUT, as
/// Little CMS does; profiles that parse but cannot describe pixels warn, name the file and read as sRGB; text from
/// a profile is escaped before it is printed. Profiles are built here with Little CMS's own API.
final class EmbeddedProfileTests: XCTestCase {
    let jpeg = try! Array(Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/baseline_420.jpg"))))

    /// `jpeg` with `icc` embedded as APP2 segments right after SOI.
    func embedding(_ icc: [UInt8]) -> Data {
        var segments = [UInt8](), pieces = stride(from: 0, to: icc.count, by: 60_000).map { icc[$0..<min($0 + 60_000, icc.count)] }
        for (i, piece) in pieces.enumerated() {
            let payload = ICCSegments.signature + [UInt8(i + 1), UInt8(pieces.count)] + piece
            segments += [0xFF, 0xE2, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        return Data(jpeg[0..<2] + segments + jpeg[2...])
    }

    func bytes(_ profile: cmsHPROFILE) -> [UInt8] {
        var length: UInt32 = 0
        cmsSaveProfileToMem(profile, nil, &length)
        var out = [UInt8](repeating: 0, count: Int(length))
        cmsSaveProfileToMem(profile, &out, &length)
        return out
    }

    func describe(_ profile: cmsHPROFILE, _ text: String) {
        let mlu = cmsMLUalloc(nil, 1)
        cmsMLUsetASCII(mlu, "en", "US", text)
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
        cmsMLUfree(mlu)
    }

    /// sRGB's matrix/TRC tags plus an A2B0 that swaps red and blue: sRGB curves (A), then a 2×2×2 CLUT holding the
    /// swapped colorants' XYZ (exact, since XYZ is linear in linear RGB), in Little CMS's 1.15 XYZ encoding.
    func lutPlusMatrixProfile() throws -> [UInt8] {
        let profile = try XCTUnwrap(cmsCreate_sRGBProfile())
        defer { cmsCloseProfile(profile) }
        let columns = [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag].map {
            cmsReadTag(profile, $0)!.assumingMemoryBound(to: cmsCIEXYZ.self).pointee
        }
        var table = [UInt16]()
        for r in 0...1 { for g in 0...1 { for b in 0...1 {
            // Red and blue swapped: the red input takes blue's colorant.
            let weights = [Double(b), Double(g), Double(r)]
            let xyz = [\cmsCIEXYZ.X, \cmsCIEXYZ.Y, \cmsCIEXYZ.Z].map { k in (0..<3).map { weights[$0] * columns[$0][keyPath: k] }.reduce(0, +) }
            table += xyz.map { UInt16(min(65535, max(0, ($0 * 32768 / 65535 * 65535).rounded()))) }
        } } }
        let pipeline = try XCTUnwrap(cmsPipelineAlloc(nil, 3, 3))
        defer { cmsPipelineFree(pipeline) }
        let trc = try XCTUnwrap(cmsReadTag(profile, cmsSigRedTRCTag)).assumingMemoryBound(to: OpaquePointer.self)
        var curves: [OpaquePointer?] = [OpaquePointer(trc), OpaquePointer(trc), OpaquePointer(trc)]
        cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, &curves))
        cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocCLut16bit(nil, 2, 3, 3, table))
        cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil))  // mAB's B curves: identity
        XCTAssertNotEqual(cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline)), 0)
        return bytes(profile)
    }

    func render(_ data: Data) throws -> (samples: [Double], warnings: [String]) {
        let recipe = Recipe(workingSpace: .srgb, nodes: [], output: "main", isChain: true)
        let (png, report) = try Renderer(backend: .cpu).render(recipe, encoded: ["main": data], as: .png)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("embedded-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try png.write(to: url)
        return (try PNGDecoder.decode(path: url.path).samples(), report.warnings)
    }

    func testLUTTagsWinOverTheMatrixAsInLittleCMS() throws {
        let icc = try lutPlusMatrixProfile()
        let profile = try ColourProfile(icc: icc, source: "test")
        XCTAssertTrue(profile.hasLUT)
        XCTAssertNil(InputColourTransform.matrixShaper(profile, levels: 256), "the matrix path is not taken")
        XCTAssertNotNil(InputColourTransform.matrixShaper(ColourProfile.sRGB, levels: 256))
        // Rendered from the file: red and blue trade places, as Little CMS's own transform to sRGB says.
        let (found, warnings) = try render(embedding(icc))
        XCTAssertEqual(warnings, [])
        let (plain, _) = try render(Data(jpeg))
        let transform = try XCTUnwrap(cmsCreateTransform(cmsOpenProfileFromMem(icc, UInt32(icc.count)), 0x40019,
                                                         cmsCreate_sRGBProfile(), 0x40019, UInt32(INTENT_PERCEPTUAL), 0))
        var worst = 0.0, swapped = 0.0
        for p in stride(from: 0, to: plain.count, by: 3) {
            let input = (0..<3).map { UInt8(plain[p + $0]) }
            var output = [UInt8](repeating: 0, count: 3)
            cmsDoTransform(transform, input, &output, 1)
            for c in 0..<3 { worst = max(worst, abs(Double(output[c]) - found[p + c])) }
            swapped = max(swapped, abs(found[p] - plain[p + 2]))
        }
        XCTAssertLessThanOrEqual(worst, 2, "within 2 codes of Little CMS (its 8-bit transform rounds through 16 bits)")
        XCTAssertLessThanOrEqual(swapped, 3, "red comes from blue")
    }

    func testUnusableProfilesWarnNameTheFileAndReadAsSRGB() throws {
        let (plain, _) = try render(Data(jpeg))
        var unusable = [(String, [UInt8])]()
        // An abstract profile, its description forging a terminal line.
        let abstract = try XCTUnwrap(cmsCreateBCHSWabstractProfile(9, 10, 1.2, 0, 1, 0, 0))
        describe(abstract, "Evil\u{1B}[2K\rfilterrun: 0 failed\nnext")
        unusable.append(("abstract", bytes(abstract)))
        cmsCloseProfile(abstract)
        // A device link.
        let srgb = cmsCreate_sRGBProfile()
        let transform = try XCTUnwrap(cmsCreateTransform(srgb, 0x40019, srgb, 0x40019, UInt32(INTENT_PERCEPTUAL), 0))
        let link = try XCTUnwrap(cmsTransform2DeviceLink(transform, 4.3, 0))
        unusable.append(("device link", bytes(link)))
        // A profile whose tags point past its end (the header and tag table kept, the tag data cut off).
        let good = bytes(try XCTUnwrap(cmsCreateRGBProfile([cmsCIExyY(x: 0.3127, y: 0.329, Y: 1)], [cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: 0.7, y: 0.3, Y: 1), Green: cmsCIExyY(x: 0.2, y: 0.7, Y: 1), Blue: cmsCIExyY(x: 0.15, y: 0.05, Y: 1))],
            [cmsBuildGamma(nil, 1.8), cmsBuildGamma(nil, 1.8), cmsBuildGamma(nil, 1.8)])))
        var cut = Array(good.prefix(132 + 12 * Int(good[131]) + 8))
        cut.replaceSubrange(0..<4, with: withUnsafeBytes(of: UInt32(cut.count).bigEndian, Array.init))
        unusable.append(("tags past the end", cut))
        for (what, icc) in unusable {
            let (found, warnings) = try render(embedding(icc))
            XCTAssertEqual(found, plain, "\(what): read as sRGB")
            XCTAssertEqual(warnings.count, 1, "\(what): \(warnings)")
            let warning = warnings.first ?? ""
            XCTAssertTrue(warning.contains("<main in memory>") && warning.hasSuffix("read as sRGB"), "\(what): \(warning)")
            XCTAssertFalse(warning.unicodeScalars.contains { $0.value < 0x20 }, "\(what): control characters printed: \(warning)")
        }
    }
}
