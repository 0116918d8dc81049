import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// `autoLevels` reads the input's histogram before it is lowered (the float64 reference at every swept parameter set
/// is in FilterReferenceTests): a flat-looking image is stretched to the full range, a cast is neutralised only per
/// channel, and the percentiles clip as many pixels as asked.
final class AutoLevelsTests: XCTestCase {
    /// Red in 80…200, green in 60…180, blue in 40…120, as a ramp along x.
    func castImage() throws -> PixelBuffer {
        let image = PixelBuffer(width: 121, height: 4, format: .rgb8)
        var samples = [Int]()
        for _ in 0..<4 { for x in 0...120 { samples += [80 + x, 60 + x, 40 + 2 * x / 3] } }
        try TrimTests.store(samples, in: image)
        return image
    }

    func channelRanges(_ buffer: PixelBuffer) throws -> [ClosedRange<Double>] {
        let s = try buffer.samples()
        return (0..<3).map { c in
            let values = stride(from: c, to: s.count, by: 3).map { s[$0] }
            return values.min()!...values.max()!
        }
    }

    func testStretchesToTheFullRange() throws {
        let image = try castImage()
        for space in [WorkingSpace.linear, .srgb] {
            let together = try Renderer(backend: .cpu).render(
                Recipe.chain([(.autoLevels, ["clipLow": 0, "clipHigh": 0])], workingSpace: space), images: ["main": image])
            let ranges = try channelRanges(together)
            XCTAssertEqual(ranges[2].lowerBound, 0, "\(space): the darkest channel reaches black")
            XCTAssertEqual(ranges[0].upperBound, 255, "\(space): the brightest reaches white")
            XCTAssertGreaterThan(ranges[0].lowerBound, 0, "\(space): together keeps the cast")
            let apart = try Renderer(backend: .cpu).render(
                Recipe.chain([(.autoLevels, ["clipLow": 0, "clipHigh": 0, "perChannel": true])], workingSpace: space),
                images: ["main": image])
            for (c, range) in try channelRanges(apart).enumerated() {
                XCTAssertEqual(range, 0...255, "\(space) channel \(c): each stretched to its own range")
            }
        }
    }

    /// Clipping 5 % at each end turns about 5 % of the pixels black and 5 % white.
    func testClipPercentagesClipThatManyPixels() throws {
        let image = try castImage()
        let out = try Renderer(backend: .cpu).render(
            Recipe.chain([(.autoLevels, ["clipLow": 5, "clipHigh": 5, "perChannel": true])], workingSpace: .srgb),
            images: ["main": image])
        let s = try out.samples()
        let red = stride(from: 0, to: s.count, by: 3).map { s[$0] }
        let black = Double(red.filter { $0 == 0 }.count) / Double(red.count)
        let white = Double(red.filter { $0 == 255 }.count) / Double(red.count)
        XCTAssertEqual(black, 0.05, accuracy: 0.02)
        XCTAssertEqual(white, 0.05, accuracy: 0.02)
    }

    func testBothBackendsAgreeAndExplainSaysWhat() throws {
        let image = try castImage()
        let recipe = Recipe.chain([(.autoLevels, ["perChannel": true]), (.monochrome, ["intensity": 0.5])])
        let cpu = try Renderer(backend: .cpu).render(recipe, images: ["main": image])
        let gpu = try Renderer(backend: .vulkan).render(recipe, images: ["main": image])
        XCTAssertLessThanOrEqual(Difference.between(try cpu.samples(), try gpu.samples(), width: cpu.width, channels: 3).worst, 1)
        let text = try Renderer(backend: .cpu).explain(Recipe.chain([(.autoLevels, [:])]),
                                                       inputs: ["main": Fixtures.path("photos/chelsea_451x300_rgb8.png")])
        XCTAssertTrue(text.contains("levels stretch red, green, blue from"), text)
    }
}
