import CKernels
import FilterCore
import Foundation
import PNGCodec
import TestSupport
import WebPCodec
import XCTest

/// WebP in and out, checked against libwebp's own command-line tools (dwebp decodes, webpmux takes frames apart):
/// every fixture variant decodes to dwebp's pixels, metadata that changes pixels is read, round trips keep pixels
/// (lossless) or stay within a stated PSNR (lossy), and damaged files give errors, never traps.
final class WebPCodecTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    func fixture(_ name: String) -> String { Fixtures.path("webp/" + name) }

    /// Runs a tool, skipping the test when it is not installed.
    func tool(_ name: String, _ arguments: [String]) throws {
        try ExternalTool.run(name, arguments, package: "webp package")
    }

    /// dwebp's decoding as RGBA (its PAM output): width, height and samples.
    func dwebp(_ path: String) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        let pam = scratch.appendingPathComponent(UUID().uuidString + ".pam").path
        try tool("dwebp", ["-quiet", path, "-pam", "-o", pam])
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pam)))
        // PAM header: lines up to ENDHDR.
        let marker = Array("ENDHDR\n".utf8)
        guard let end = (0...(data.count - marker.count)).first(where: { Array(data[$0..<($0 + marker.count)]) == marker }) else {
            throw XCTSkip("dwebp wrote no PAM header")
        }
        let header = String(decoding: data[..<end], as: UTF8.self)
        func field(_ name: String) -> Int { Int(header.split(separator: "\n").first { $0.hasPrefix(name + " ") }?.split(separator: " ").last ?? "") ?? 0 }
        return (field("WIDTH"), field("HEIGHT"), Array(data[(end + marker.count)...]))
    }

    func ours(_ path: String, limits: DecodeLimits = DecodeLimits()) throws -> (decoder: WebPDecoder, samples: [UInt8]) {
        let decoder = try WebPDecoder(path: path, limits: limits)
        let buffer = try decoder.readAll()
        return (decoder, [UInt8](try buffer.packedData()))
    }

    /// RGBA samples from RGB or RGBA ones (alpha 255 where there is none).
    func rgba(_ samples: [UInt8], channels: Int) -> [UInt8] {
        guard channels == 3 else { return samples }
        var out = [UInt8](); out.reserveCapacity(samples.count / 3 * 4)
        for p in stride(from: 0, to: samples.count, by: 3) { out += [samples[p], samples[p + 1], samples[p + 2], 255] }
        return out
    }

    func testEveryVariantDecodesToDwebpsPixels() throws {
        for (name, size, format, lossless) in [("lossy_160x107.webp", [160, 107], PixelFormat.rgb8, false),
                                               ("lossy_alpha_160x120.webp", [160, 120], .rgba8, false),
                                               ("lossless_rgba_160x120.webp", [160, 120], .rgba8, true),
                                               ("icc_adobergb_160x107.webp", [160, 107], .rgb8, false),
                                               ("exif_orientation6_160x107.webp", [160, 107], .rgb8, false)] {
            let (decoder, samples) = try ours(fixture(name))
            XCTAssertEqual([decoder.width, decoder.height], size, name)
            XCTAssertEqual(decoder.format, format, name)
            XCTAssertEqual(decoder.isLossless, lossless, name)
            XCTAssertFalse(decoder.isAnimated, name)
            let reference = try dwebp(fixture(name))
            XCTAssertEqual([reference.width, reference.height], size, name)
            XCTAssertEqual(rgba(samples, channels: format.channels), reference.rgba, "\(name): pixels differ from dwebp's")
        }
    }

    /// Lossless stills without alpha decode at smaller sizes through libwebp's rescaler: the pixels dwebp -scale gives.
    func testReducedDecodesAreLibwebpsRescaledPixels() throws {
        let name = "lossless_160x107.webp"
        for size in [[80, 54], [40, 27], [20, 14], [61, 37]] {
            let decoder = try WebPDecoder(path: fixture(name))
            XCTAssertTrue(decoder.decodeReductions.rescales)
            try decoder.reduce(toWidth: size[0], height: size[1])
            XCTAssertEqual([decoder.width, decoder.height], size)
            XCTAssertEqual([decoder.storedWidth, decoder.storedHeight], [160, 107])
            let samples = [UInt8](try decoder.readAll().packedData())
            let pam = scratch.appendingPathComponent("scaled\(size[0]).pam").path
            try tool("dwebp", ["-quiet", fixture(name), "-scale", "\(size[0])", "\(size[1])", "-pam", "-o", pam])
            let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pam)))
            let marker = Array("ENDHDR\n".utf8)
            let end = (0...(data.count - marker.count)).first { Array(data[$0..<($0 + marker.count)]) == marker }!
            XCTAssertEqual(rgba(samples, channels: 3), Array(data[(end + marker.count)...]), "\(size)")
        }
        XCTAssertFalse(try WebPDecoder(path: fixture("lossy_160x107.webp")).decodeReductions.rescales, "lossy stills reduce by boxes")
        // Alpha and animations decode whole: the rescaler weighs colour by alpha, which a box reduction does not.
        XCTAssertFalse(try WebPDecoder(path: fixture("lossy_alpha_160x120.webp")).decodeReductions.rescales)
        XCTAssertFalse(try WebPDecoder(path: fixture("animated_2frames_96x64.webp")).decodeReductions.rescales)
        XCTAssertThrowsError(try WebPDecoder(path: fixture("lossy_alpha_160x120.webp")).reduce(by: 2))
    }

    /// Lossy stills without alpha decode at 1/2 … 1/8 as the exact box means of libwebp's full decode (the last
    /// boxes partial, rounded to nearest), whichever way the rows are asked for; a cut or damaged file is an error.
    /// The box means of `full` (RGB, `w` × `h`) at 1/`factor`, the last boxes partial, rounded to nearest.
    func boxMeans(_ full: [UInt8], _ w: Int, _ h: Int, factor: Int) -> [UInt8] {
        let (ow, oh) = ((w + factor - 1) / factor, (h + factor - 1) / factor)
        var expected = [UInt8]()
        for oy in 0..<oh {
            for ox in 0..<ow {
                let ys = (oy * factor)..<min(oy * factor + factor, h), xs = (ox * factor)..<min(ox * factor + factor, w)
                let n = ys.count * xs.count
                for c in 0..<3 {
                    var sum = 0
                    for y in ys { for x in xs { sum += Int(full[(y * w + x) * 3 + c]) } }
                    expected.append(UInt8((sum + n / 2) / n))
                }
            }
        }
        return expected
    }

    /// Reads `path` reduced by `factor`, its rows asked for in `chunks`.
    func reduced(_ path: String, factor: Int, chunks: [Int]? = nil) throws -> [UInt8] {
        let decoder = try WebPDecoder(path: path)
        XCTAssertEqual(decoder.decodeReductions.method, .decodedBoxes)
        try decoder.reduce(by: factor)
        let (ow, oh) = (decoder.width, decoder.height)
        var got = [UInt8](repeating: 0, count: ow * oh * 3)
        try got.withUnsafeMutableBytes { raw in
            for count in chunks ?? [oh] where count > 0 {
                try decoder.readRows(into: raw.baseAddress! + decoder.nextRow * ow * 3, stride: ow * 3, count: count)
            }
        }
        XCTAssertEqual(decoder.nextRow, oh)
        return got
    }

    func testReducedLossyDecodesAreTheFullDecodesBoxMeans() throws {
        let name = "lossy_160x107.webp"
        let full = try ours(fixture(name)).samples
        let (w, h) = (160, 107)
        for factor in 2...8 {
            let oh = (h + factor - 1) / factor
            for chunks in [[oh], [1, 2, oh - 3], [oh - 1, 1]] {
                XCTAssertEqual(try reduced(fixture(name), factor: factor, chunks: chunks), boxMeans(full, w, h, factor: factor),
                               "1/\(factor) read in \(chunks)")
            }
        }
        // Cut short or stomped: an error naming the file, never a trap, whichever rows were asked for.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture(name)))
        for (label, data) in [("cut", bytes.prefix(bytes.count * 2 / 3)), ("stomped", Data(bytes.enumerated().map { $0.offset > 40 && $0.offset % 29 == 0 ? $0.element ^ 0xA5 : $0.element }))] {
            let path = scratch.appendingPathComponent("\(label).webp").path
            FileManager.default.createFile(atPath: path, contents: data)
            guard let decoder = try? WebPDecoder(path: path) else { continue }
            try decoder.reduce(by: 3)
            var rows = [UInt8](repeating: 0, count: decoder.width * decoder.height * 3)
            do {
                try rows.withUnsafeMutableBytes { try decoder.readRows(into: $0.baseAddress!, stride: decoder.width * 3, count: decoder.height) }
                XCTAssertEqual(label, "stomped", "a cut file cannot decode whole")
            } catch let error as CodecError {
                XCTAssertEqual(error.path, path)
                if label == "cut" { XCTAssertTrue(error.message.contains("truncated"), error.message) }
            }
        }
    }

    /// The reduction makes each pixel RGB from libwebp's Y'CbCr planes as libwebp does (its fancy upsampling and
    /// fixed-point conversion) and sums them: the same bytes as box-averaging libwebp's own RGB decode, at odd and
    /// even widths and heights (the edge chroma samples repeated), across the 16-pair SIMD step and its remainders,
    /// on both SIMD paths.
    func testReducedLossyDecodesMatchLibwebpsRGBAtEverySize() throws {
        let photo = try PNGDecoder.decode(path: Fixtures.path("photos/chelsea_451x300_rgb8.png"))
        let samples = [UInt8](try photo.packedData())
        defer { fr_kernels_set_avx2(1) }
        for (w, h) in [(1, 1), (2, 3), (7, 2), (33, 17), (64, 31), (97, 50), (100, 41), (131, 64), (451, 300)] {
            var crop = [UInt8]()
            for y in 0..<h { crop += samples[(y * 451 * 3)..<(y * 451 * 3 + w * 3)] }
            let image = try PixelBuffer(width: w, height: h, format: .rgb8, copying: Data(crop))
            let path = try encode(image, options: WebPWriteOptions(quality: 75), name: "crop\(w)x\(h).webp")
            let full = try ours(path).samples
            for factor in [2, 3, 4, 5, 8] {
                for avx2 in [true, false] {
                    fr_kernels_set_avx2(avx2 ? 1 : 0)
                    let got = try reduced(path, factor: factor), expected = boxMeans(full, w, h, factor: factor)
                    XCTAssertEqual(got.count, expected.count)
                    let first = got.indices.first { $0 < expected.count && got[$0] != expected[$0] }
                    XCTAssertNil(first, "\(w)×\(h) at 1/\(factor), AVX2 \(avx2): sample \(first ?? 0) differs")
                }
            }
        }
    }

    func testMetadataThatChangesPixelsIsRead() throws {
        let icc = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/compatibleWithAdobeRGB1998.icc"))))
        XCTAssertEqual(try WebPDecoder(path: fixture("icc_adobergb_160x107.webp")).metadata.iccProfile, icc)
        XCTAssertEqual(try WebPDecoder(path: fixture("exif_orientation6_160x107.webp")).metadata.orientation, 6)
        XCTAssertEqual(try WebPDecoder(path: fixture("lossy_160x107.webp")).metadata, ImageMetadata())
    }

    /// An animation reads as its first frame on the canvas, as webpmux takes it out and dwebp decodes it.
    func testAnAnimationReadsAsItsFirstFrame() throws {
        let (decoder, samples) = try ours(fixture("animated_2frames_96x64.webp"))
        XCTAssertTrue(decoder.isAnimated)
        XCTAssertEqual(decoder.frameCount, 2)
        XCTAssertEqual([decoder.width, decoder.height], [96, 64])
        let first = scratch.appendingPathComponent("first.webp").path
        try tool("webpmux", ["-get", "frame", "1", fixture("animated_2frames_96x64.webp"), "-o", first])
        let reference = try dwebp(first)
        XCTAssertEqual(rgba(samples, channels: decoder.format.channels), reference.rgba)
    }

    func encode(_ source: PixelBuffer, options: WebPWriteOptions, icc: [UInt8]? = nil, name: String) throws -> String {
        let path = scratch.appendingPathComponent(name).path
        let encoder = try WebPEncoder(output: try OutputFile(path: path, replace: false), width: source.width,
                                      height: source.height, format: source.format, options: options, icc: icc)
        try encoder.writeRows(try source.hostBytes(), stride: source.rowStride, count: source.height)
        try encoder.finish()
        return path
    }

    func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let mse = zip(a, b).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) } / Double(a.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    func testRoundTripsKeepPixelsOrStayWithinThePSNRTable() throws {
        let photo = try PNGDecoder.decode(path: Fixtures.path("photos/chelsea_451x300_rgb8.png"))
        let logo = try PNGDecoder.decode(path: Fixtures.path("photos/emerald_crop_320x240_rgba8.png"))
        // Lossless: every sample back, alpha and the colour under transparent pixels included.
        for (image, name) in [(photo, "photo"), (logo, "logo")] {
            let path = try encode(image, options: WebPWriteOptions(lossless: true), name: "\(name)-lossless.webp")
            let (decoder, samples) = try ours(path)
            XCTAssertEqual(decoder.format, image.format, name)
            XCTAssertTrue(decoder.isLossless, name)
            XCTAssertEqual(samples, [UInt8](try image.packedData()), "\(name): lossless changed pixels")
            XCTAssertEqual(rgba(samples, channels: image.format.channels), try dwebp(path).rgba, "\(name): dwebp disagrees")
        }
        // Lossy, by quality: PSNR against the source, measured through dwebp. The floor each quality must clear
        // (libwebp 1.2.4 on this photo gives about 2 dB more).
        let source = [UInt8](try photo.packedData())
        var sizes = [Int]()
        for (quality, floor) in [(50, 30.0), (80, 33.0), (95, 38.0)] {
            let path = try encode(photo, options: WebPWriteOptions(quality: quality), name: "q\(quality).webp")
            let decoded = try dwebp(path).rgba
            var rgb = [UInt8](); rgb.reserveCapacity(source.count)
            for p in stride(from: 0, to: decoded.count, by: 4) { rgb += decoded[p..<(p + 3)] }
            let db = psnr(source, rgb)
            XCTAssertGreaterThan(db, floor, "quality \(quality): \(db) dB")
            sizes.append(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0)
        }
        XCTAssertEqual(sizes, sizes.sorted(), "higher quality, larger file: \(sizes)")
        // Lossy alpha at alpha quality 100 keeps alpha exactly.
        let alphaPath = try encode(logo, options: WebPWriteOptions(quality: 80), name: "alpha.webp")
        let alpha = try ours(alphaPath).samples
        let logoSamples = [UInt8](try logo.packedData())
        XCTAssertEqual(stride(from: 3, to: alpha.count, by: 4).map { alpha[$0] }, stride(from: 3, to: logoSamples.count, by: 4).map { logoSamples[$0] })
        // A profile is embedded as an ICCP chunk; grey rows are written as RGB.
        let icc = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/compatibleWithAdobeRGB1998.icc"))))
        let tagged = try encode(photo, options: WebPWriteOptions(quality: 80), icc: icc, name: "tagged.webp")
        XCTAssertEqual(try WebPDecoder(path: tagged).metadata.iccProfile, icc)
        let grey = try PNGDecoder.decode(path: Fixtures.path("photos/camera_512_gray8.png"))
        let greyPath = try encode(grey, options: WebPWriteOptions(lossless: true), name: "grey.webp")
        let spread = try ours(greyPath).samples
        let greySamples = [UInt8](try grey.packedData())
        XCTAssertEqual(stride(from: 0, to: spread.count, by: 3).map { spread[$0] }, greySamples)
    }

    func testDamagedFilesAreErrorsNeverTraps() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: fixture("lossy_160x107.webp")))
        func decodeError(_ bytes: Data) -> CodecError? {
            let path = scratch.appendingPathComponent(UUID().uuidString + ".webp").path
            FileManager.default.createFile(atPath: path, contents: bytes)
            do { _ = try ours(path); return nil } catch let error as CodecError { return error } catch { XCTFail("\(error)"); return nil }
        }
        for cut in [12, 30, whole.count / 2, whole.count - 1] {
            let error = decodeError(whole.prefix(cut))
            XCTAssertEqual(error?.kind, .corrupt, "cut at \(cut)")
            XCTAssertTrue(error?.message.contains("truncated") == true || error?.message.contains("corrupt") == true, "\(String(describing: error))")
        }
        // Bytes changed inside the image data: an error, or pixels (VP8 has no checksum) — never a trap.
        var random = SplitMix64(seed: 27)
        for _ in 0..<200 {
            var bytes = [UInt8](whole)
            for _ in 0..<4 { bytes[30 + Int(random.next() % UInt64(bytes.count - 30))] = UInt8(random.next() & 0xFF) }
            _ = decodeError(Data(bytes))
        }
        // A header that declares a bigger image than allowed is refused before decoding.
        XCTAssertThrowsError(try WebPDecoder(path: fixture("lossy_160x107.webp"), limits: DecodeLimits(maxPixels: 1000))) {
            XCTAssertEqual(($0 as? CodecError)?.kind, .tooLarge)
            XCTAssertTrue("\($0)".contains("over the limit of 1000"), "\($0)")
        }
        XCTAssertThrowsError(try WebPDecoder(path: fixture("lossless_rgba_160x120.webp"), limits: DecodeLimits(maxMemory: 50_000))) {
            XCTAssertEqual(($0 as? CodecError)?.kind, .tooLarge)
        }
    }

    func testTheEncoderRefusesWhatWebPCannotHold() throws {
        let path = scratch.appendingPathComponent("x.webp").path
        XCTAssertThrowsError(try WebPEncoder(output: try OutputFile(path: path, replace: false), width: 10, height: 10, format: .rgb16))
        XCTAssertThrowsError(try WebPEncoder(output: try OutputFile(path: path, replace: false), width: 20_000, height: 10, format: .rgb8)) {
            XCTAssertTrue("\($0)".contains("16383"), "\($0)")
        }
        XCTAssertThrowsError(try WebPEncoder(output: try OutputFile(path: path, replace: false), width: 10, height: 10, format: .rgb8,
                                             options: WebPWriteOptions(effort: 9)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing is left by a refused encoder")
    }
}
