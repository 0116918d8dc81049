import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// Sharpening across an alpha edge: flat colour must stay flat (W3C feConvolveMatrix with either preserveAlpha, and
/// unsharp mask on straight colour). Before the fix both darkened the edge to black, since neighbours' alpha leaked
/// into premultiplied colour. Runs on the CPU and, where a device opens, on Vulkan.
final class AlphaEdgeTests: XCTestCase {
    override func tearDown() {
        assertNoVulkanValidationMessages()
        super.tearDown()
    }

    static let colour: [UInt8] = [200, 100, 50]

    /// 64×8 RGBA: flat (200, 100, 50), alpha 255 for x < 32 and 64 from x = 32.
    func edge() throws -> PixelBuffer {
        var bytes = Data()
        for _ in 0..<8 { for x in 0..<64 { bytes += Self.colour + [x < 32 ? 255 : 64] } }
        return try PixelBuffer(width: 64, height: 8, format: .rgba8, copying: bytes)
    }

    func renders(_ recipe: Recipe, _ image: PixelBuffer) throws -> [(String, PixelBuffer)] {
        var out = [("cpu", try Renderer(backend: .cpu).render(recipe, images: ["main": image]))]
        do { out.append(("vulkan", try Renderer(backend: .vulkan).render(recipe, images: ["main": image]))) }
        catch RenderError.device { /* no Vulkan device here: the CPU result still counts */ }
        return out
    }

    func assertFlat(_ steps: [(FilterID, [String: ParamValue])], space: WorkingSpace, alpha expectedAlpha: ((Int) -> ClosedRange<Double>)? = nil,
                    file: StaticString = #filePath, line: UInt = #line) throws {
        let recipe = Recipe.chain(steps, workingSpace: space)
        for (backend, out) in try renders(recipe, try edge()) {
            let s = try out.samples()
            for x in [0, 30, 31, 32, 33, 63] {
                let i = (3 * 64 + x) * 4
                let context = "\(steps) \(space) on \(backend) at x \(x): \(Array(s[i..<i + 4]))"
                if s[i + 3] > 0 {
                    for c in 0..<3 { XCTAssertEqual(s[i + c], Double(Self.colour[c]), accuracy: 1, context, file: file, line: line) }
                }
                if let expectedAlpha {
                    XCTAssertTrue(expectedAlpha(x).contains(s[i + 3]), context, file: file, line: line)
                }
            }
        }
    }

    static let sharpen: ParamValue = .numbers([0, -1, 0, -1, 5, -1, 0, -1, 0])

    func testConvolvePreservingAlphaKeepsFlatColourAndAlpha() throws {
        for space in [WorkingSpace.srgb, .linear] {
            try assertFlat([(.convolve, ["kernel": Self.sharpen, "preserveAlpha": true])], space: space,
                           alpha: { $0 < 32 ? 255...255 : 64...64 })
        }
    }

    func testConvolvingPremultipliedChannelsKeepsFlatColour() throws {
        // Alpha itself is sharpened (overshoots to 255 at x = 31, undershoots to 0 at x = 32); colour stays flat.
        for space in [WorkingSpace.srgb, .linear] {
            try assertFlat([(.convolve, ["kernel": Self.sharpen, "preserveAlpha": false])], space: space,
                           alpha: { x in x == 31 ? 255...255 : (x == 32 ? 0...0 : (x < 32 ? 255...255 : 64...64)) })
        }
    }

    func testUnsharpMaskKeepsFlatColourAndAlpha() throws {
        for space in [WorkingSpace.srgb, .linear] {
            try assertFlat([(.unsharpMask, ["sigma": 2, "amount": 1.5])], space: space, alpha: { $0 < 32 ? 255...255 : 64...64 })
        }
    }

    /// Bias is added to straight colour: a flat image with bias 0.1 (sRGB space) gains 25.5 codes at either alpha.
    func testBiasIsAddedToStraightColour() throws {
        let identity: ParamValue = .numbers([0, 0, 0, 0, 1, 0, 0, 0, 0])
        for preserveAlpha in [true, false] {
            let recipe = Recipe.chain([(.convolve, ["kernel": identity, "bias": 0.1, "preserveAlpha": .boolean(preserveAlpha)])],
                                      workingSpace: .srgb)
            for (backend, out) in try renders(recipe, try edge()) {
                let s = try out.samples()
                for x in [0, 63] {
                    let i = (3 * 64 + x) * 4
                    XCTAssertEqual(s[i], 225.5, accuracy: 1, "\(backend) preserveAlpha \(preserveAlpha) x \(x)")
                    XCTAssertEqual(s[i + 3], x < 32 ? 255 : 64, "\(backend) preserveAlpha \(preserveAlpha) x \(x)")
                }
            }
        }
    }

    /// A real cut-out (the emerald logo's antialiased alpha): sharpening must not darken the edge. The mean straight
    /// luminance of semi-transparent pixels stays within 2 % of the original's.
    func testSharpeningACutOutDoesNotDarkenItsEdge() throws {
        let logo = try TestImages.decode(path: Fixtures.repository.appendingPathComponent("samples/emerald-logo_160x120_rgba8.png").path)
        func edgeLuminance(_ buffer: PixelBuffer, over reference: [Double]) throws -> Double {
            let s = try buffer.samples()
            var sum = 0.0, n = 0.0
            for p in 0..<(s.count / 4) where reference[p * 4 + 3] > 16 && reference[p * 4 + 3] < 240 {
                sum += 0.2126 * s[p * 4] + 0.7152 * s[p * 4 + 1] + 0.0722 * s[p * 4 + 2]
                n += 1
            }
            return sum / max(n, 1)
        }
        let original = try logo.samples()
        let before = try edgeLuminance(logo, over: original)
        XCTAssertGreaterThan(before, 20, "the fixture has a semi-transparent edge with colour")
        for step in [(FilterID.unsharpMask, ["sigma": 2, "amount": 1] as [String: ParamValue]),
                     (.convolve, ["kernel": Self.sharpen])] {
            for (backend, out) in try renders(Recipe.chain([step]), logo) {
                let after = try edgeLuminance(out, over: original)
                XCTAssertEqual(after, before, accuracy: before * 0.02, "\(step.0) on \(backend)")
            }
        }
    }
}
