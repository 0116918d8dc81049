import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// highlightsShadows and localContrast against what their definition implies; the float64 reference and CPU ≡
/// Vulkan checks run in FilterReferenceTests and CrossBackendTests with every swept parameter.
final class LocalToneTests: XCTestCase {
    /// 96×64: the left half dark (code 40 ± 8 of texture), the right half light (code 215 ± 8), in a warm colour.
    func halves() throws -> PixelBuffer {
        let image = PixelBuffer(width: 96, height: 64, format: .rgb8)
        let bytes = try image.mutableHostBytes()
        var random = SplitMix64(seed: 5)
        for y in 0..<64 {
            for x in 0..<96 {
                let level = (x < 48 ? 40 : 215) + Int(random.next() % 17) - 8
                let pixel = [level, level * 8 / 10, level * 6 / 10]
                for c in 0..<3 { bytes.storeBytes(of: UInt8(pixel[c]), toByteOffset: y * image.rowStride + x * 3 + c, as: UInt8.self) }
            }
        }
        return image
    }

    func render(_ step: (FilterID, [String: ParamValue]), _ image: PixelBuffer) throws -> [Double] {
        try Renderer(backend: .cpu).render(Recipe.chain([step]), images: ["main": image]).samples()
    }

    /// The red channel's mean and spread over columns `columns` (away from the edge between the halves).
    func stats(_ v: [Double], _ columns: Range<Int>) -> (mean: Double, spread: Double) {
        let values = (0..<64).flatMap { y in columns.map { v[(y * 96 + $0) * 3] } }
        let mean = values.reduce(0, +) / Double(values.count)
        return (mean, (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot())
    }

    /// Shadows lift the dark half far more than the light half (the curve b(1 − b)² peaks at b = ⅓), highlights
    /// lower the light half far more than the dark one, and the dark half's texture survives the lift.
    func testShadowsLiftTheDarkSideAndHighlightsLowerTheLightOne() throws {
        let image = try halves(), original = try image.samples()
        let (dark, light) = (stats(original, 4..<40), stats(original, 56..<92))
        let lifted = try render((.highlightsShadows, ["shadows": 1, "highlights": 0, "radius": 12]), image)
        let (darkRise, lightRise) = (stats(lifted, 4..<40).mean - dark.mean, stats(lifted, 56..<92).mean - light.mean)
        XCTAssertGreaterThan(darkRise, 25, "shadows open up")
        XCTAssertGreaterThan(darkRise, lightRise, "the dark side more than the light")
        // The detail is added back in lightness, about as many codes as it had.
        XCTAssertEqual(stats(lifted, 4..<40).spread, dark.spread, accuracy: dark.spread * 0.5, "texture kept")
        let lowered = try render((.highlightsShadows, ["shadows": 0, "highlights": 1, "radius": 12]), image)
        let (lightFall, darkFall) = (light.mean - stats(lowered, 56..<92).mean, dark.mean - stats(lowered, 4..<40).mean)
        XCTAssertGreaterThan(lightFall, 15, "highlights come down")
        XCTAssertGreaterThan(lightFall, 2 * darkFall, "the light side more than the dark")
    }

    /// Colour is scaled, not replaced: the channels' ratios of a pixel stay (in linear light), within the rounding
    /// of 8-bit codes.
    func testHueStays() throws {
        let image = try halves(), original = try image.samples()
        let lifted = try render((.highlightsShadows, ["shadows": 0.8, "highlights": 0.5, "radius": 12]), image)
        for i in stride(from: 0, to: original.count, by: 3 * 37) {
            let before = (0..<3).map { SRGB.toLinear(original[i + $0] / 255) }, after = (0..<3).map { SRGB.toLinear(lifted[i + $0] / 255) }
            XCTAssertEqual(after[2] / after[0], before[2] / before[0], accuracy: 0.05, "pixel \(i / 3)")
        }
    }

    /// Detail against the base grows with the amount and shrinks below 0; flat areas stay flat.
    func testLocalContrastScalesDetail() throws {
        let image = try halves(), original = try image.samples()
        let spread = stats(original, 56..<92).spread
        let stronger = try render((.localContrast, ["amount": 1, "radius": 12]), image)
        XCTAssertGreaterThan(stats(stronger, 56..<92).spread, spread * 1.6)
        let softer = try render((.localContrast, ["amount": -0.8, "radius": 12]), image)
        XCTAssertLessThan(stats(softer, 56..<92).spread, spread * 0.5)
        let flat = PixelBuffer(width: 30, height: 20, format: .rgb8)
        let bytes = try flat.mutableHostBytes()
        for i in 0..<(flat.rowStride * 20) { bytes.storeBytes(of: UInt8([90, 140, 60][i % 3]), toByteOffset: i, as: UInt8.self) }
        let result = try render((.localContrast, ["amount": 1.5, "radius": 8]), flat)
        XCTAssertEqual(result, try flat.samples(), "a flat image has no detail to strengthen")
    }
}
