import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// noiseReduction against what its three steps imply; the float64 reference and CPU ≡ Vulkan checks run in
/// FilterReferenceTests and CrossBackendTests with every swept parameter.
final class NoiseReductionTests: XCTestCase {
    func render(_ steps: [(FilterID, [String: ParamValue])], _ image: PixelBuffer) throws -> [Double] {
        var recipe = Recipe.chain(steps)
        recipe.workingSpace = .srgb
        return try Renderer(backend: .cpu).render(recipe, images: ["main": image]).samples()
    }

    /// 64×48 RGB8 around (120, 120, 120): `chroma` moves red and blue apart (luminance nearly kept), `grain` moves all
    /// three together.
    func noisy(chroma: Int, grain: Int) throws -> PixelBuffer {
        let image = PixelBuffer(width: 64, height: 48, format: .rgb8)
        let bytes = try image.mutableHostBytes()
        var random = SplitMix64(seed: 9)
        for i in 0..<(64 * 48) {
            let c = chroma > 0 ? Int(random.next() % UInt64(2 * chroma + 1)) - chroma : 0
            let g = grain > 0 ? Int(random.next() % UInt64(2 * grain + 1)) - grain : 0
            for (k, v) in [120 + c + g, 120 + g, 120 - c + g].enumerated() {
                bytes.storeBytes(of: UInt8(v), toByteOffset: (i / 64) * image.rowStride + (i % 64) * 3 + k, as: UInt8.self)
            }
        }
        return image
    }

    func spread(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }

    /// Colour noise goes (red minus blue spreads far less) while each pixel's luminance stays where it was.
    func testColourStepSmoothsChromaAndKeepsLuminance() throws {
        let image = try noisy(chroma: 20, grain: 0), before = try image.samples()
        let after = try render([(.noiseReduction, ["color": 1, "luminance": 0, "sharpness": 0])], image)
        func chroma(_ v: [Double]) -> [Double] { stride(from: 0, to: v.count, by: 3).map { v[$0] - v[$0 + 2] } }
        func lum(_ v: [Double]) -> [Double] {
            stride(from: 0, to: v.count, by: 3).map { (i: Int) -> Double in
                let (r, g, b) = (v[i], v[i + 1], v[i + 2])
                return 0.3 * r + 0.59 * g + 0.11 * b
            }
        }
        XCTAssertLessThan(spread(chroma(after)), spread(chroma(before)) / 4)
        XCTAssertTrue(zip(lum(after), lum(before)).allSatisfy { abs($0 - $1) <= 1.5 }, "W3C Lum kept")
    }

    /// Grain goes on flat colour; sharpening alone is exactly the sharpen filter.
    func testLuminanceStepSmoothsGrainAndSharpnessIsSharpen() throws {
        let image = try noisy(chroma: 0, grain: 10), before = try image.samples()
        let after = try render([(.noiseReduction, ["color": 0, "luminance": 1, "sharpness": 0])], image)
        XCTAssertLessThan(spread(after), spread(before) / 2)
        XCTAssertEqual(try render([(.noiseReduction, ["color": 0, "luminance": 0, "sharpness": 0.7])], image),
                       try render([(.sharpen, ["amount": 0.7])], image))
    }
}
