import FilterCore
import FilterRecipe
import Foundation
import PNGCodec
import TestSupport
import XCTest

/// `Renderer.statistics` / `filterrun stats`: BlurHash against the reference implementation, histograms and means
/// against their definitions, main colours on images whose colours are known.
final class StatisticsTests: XCTestCase {
    func rgba(_ path: String) throws -> (bytes: [UInt8], width: Int, height: Int) {
        let image = try PNGDecoder.decode(path: Fixtures.path(path))
        let samples = try image.samples()
        var out = [UInt8]()
        for i in 0..<image.width * image.height {
            out += (0..<3).map { UInt8(samples[i * 3 + $0]) } + [255]
        }
        return (out, image.width, image.height)
    }

    /// Strings from the Python `blurhash` package 1.1.5 (github.com/halcy/blurhash-python), an independent port of
    /// the reference algorithm, on the same pixels:
    /// `blurhash.encode(rows_of_rgb, components_x=X, components_y=Y)` for each PNG in Tests/Fixtures/blurhash.
    func testBlurHashEqualsTheReferenceImplementation() throws {
        let expected: [(String, Int, Int, String)] = [
            ("chelsea_100x67", 4, 3, "L8HdT$#ju6xW9Zx]RQ?HkY%2xYR."),
            ("chelsea_100x67", 1, 1, "00HdT$"),
            ("chelsea_100x67", 5, 2, "D8HdT$#ju6xWI@9Zx]RQ?Hkq"),
            ("chelsea_100x67", 9, 9, "|8HdT$#ju6xWI@XTNZxu%29Zx]RQ?Hkq%3kX%M%LkY%2xYR.Ip$%ofIoxua0jYW=M|k8xGt6NGNbIpayi^oINGNGIon#Rkt7RjoLNHRkWUIoofWBWXayR*xaRjbct6xat7sls;NGxZofWBxaR*t7%2WAogR*WBxaayWXWB"),
            ("coffee_100x67", 4, 3, "LOJ=.MNdv}xG~AE257IpOrSgbaR+"),
            ("coffee_100x67", 1, 1, "00J=.M"),
            ("coffee_100x67", 9, 9, "|OJ=.MNdv}xGtkjYkWkVVt~AE257IpX8WBozofn%OrSgbaR+e?R+aejFW;EMNbsljZS~kCr=bGt6j]kCWoWBt7t7M{V@ofsmR+NbWBxZoyjGsTj[V@WCoza{e.n%j[axj[RQWVxtoLRkfks.nif+WCays.oeWXafjsjYs:"),
        ]
        for (name, x, y, hash) in expected {
            let image = try rgba("blurhash/\(name).png")
            XCTAssertEqual(BlurHash.encode(rgba: image.bytes, width: image.width, height: image.height, x: x, y: y), hash, "\(name) \(x)×\(y)")
        }
    }

    /// ThumbHashes from the Python `thumbhash` package 0.1 (an independent port of evanw/thumbhash) on the same
    /// opaque pixels: `base64(rgba_to_thumb_hash(w, h, rgba))` for each PNG in Tests/Fixtures/blurhash. (Its alpha
    /// path mis-assigns a tuple, so images with alpha are checked by their header fields below instead.)
    func testThumbHashEqualsAnIndependentImplementation() throws {
        for (name, expected) in [("chelsea_100x67", "XUkGFYL2V2ix5qmreEWIhQx41HBm"), ("coffee_100x67", "GYoKDYSlqYdPUXd3eEeHh9J/UYoI")] {
            let image = try rgba("blurhash/\(name).png")
            XCTAssertEqual(Data(ThumbHash.encode(rgba: image.bytes, width: image.width, height: image.height)).base64EncodedString(),
                           expected, name)
        }
        // With alpha: the header says so, and the average alpha (4 bits) of a half-transparent image is about 8.
        var half = [UInt8]()
        for i in 0..<(20 * 10) { half += [200, 100, 50, i % 20 < 10 ? 255 : 0] }
        let hash = ThumbHash.encode(rgba: half, width: 20, height: 10)
        XCTAssertEqual(hash[2] >> 7, 1, "the alpha flag")
        XCTAssertEqual(Int(hash[5] & 15), 8, "a·15 rounded, a = 0.5")
    }

    /// Histograms count every pixel once per channel, the mean is the histogram's, and the BlurHash is that of the
    /// result box-averaged to fit 100×100.
    func testHistogramsMeansAndPlaceholder() throws {
        let path = Fixtures.path("photos/chelsea_451x300_rgb8.png")
        let stats = try Renderer(backend: .cpu).statistics(Recipe.chain([(.crop, ["width": 200])]), inputs: ["main": path])
        XCTAssertEqual([stats.width, stats.height], [200, 300])
        XCTAssertEqual(stats.channels, ["red", "green", "blue"])
        let photo = try TestImages.decode(path: path), samples = try photo.samples()
        for (c, name) in stats.channels.enumerated() {
            let histogram = try XCTUnwrap(stats.histograms[name])
            XCTAssertEqual(histogram.reduce(0, +), 200 * 300)
            var expected = [Int](repeating: 0, count: 256)
            for y in 0..<300 { for x in 0..<200 { expected[Int(samples[(y * photo.width + x) * 3 + c])] += 1 } }
            XCTAssertEqual(histogram, expected, name)
            let mean = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset * $1.element) } / Double(200 * 300) / 255
            XCTAssertEqual(stats.mean[c], mean, accuracy: 1e-9)
        }
        XCTAssertEqual(stats.blurHash.count, 28, "4×3 components: 6 + 2·11 characters")
        XCTAssertEqual(stats.blurHashComponents, [4, 3])
        XCTAssertEqual(Data(base64Encoded: stats.thumbHash)?.count ?? 0 >= 5, true, "a ThumbHash: at least its headers")
    }

    /// Two flat colours in a 3:1 ratio give exactly those two main colours with those shares, whatever k asks.
    func testMainColoursOfATwoColourImage() throws {
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let image = PixelBuffer(width: 40, height: 20, format: .rgb8)
        var samples = [Int]()
        for _ in 0..<20 { for x in 0..<40 { samples += x < 30 ? [200, 40, 30] : [20, 60, 180] } }
        try TrimTests.store(samples, in: image)
        let path = scratch.appendingPathComponent("two.png").path
        try PNGEncoder.encode(image, to: path)
        let stats = try Renderer(backend: .cpu).statistics(Recipe.chain([(.crop, [:])]), inputs: ["main": path], colours: 5)
        XCTAssertEqual(stats.dominantColors.map(\.hex), ["#c8281e", "#143cb4"])
        XCTAssertEqual(stats.dominantColors[0].share, 0.75, accuracy: 1e-9)
    }

    func testOutOfRangeRequestsAreRefused() {
        let path = Fixtures.path("photos/chelsea_451x300_rgb8.png")
        XCTAssertThrowsError(try Renderer().statistics(Recipe.chain([]), inputs: ["main": path], blurHashComponents: (0, 3)))
        XCTAssertThrowsError(try Renderer().statistics(Recipe.chain([]), inputs: ["main": path], colours: 40))
    }
}
