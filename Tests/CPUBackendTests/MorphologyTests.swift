import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// Dilation and erosion against what the definition implies (Gonzalez & Woods 9.6); the float64 reference and the
/// CPU ≡ Vulkan checks run in FilterReferenceTests and CrossBackendTests with every swept parameter.
final class MorphologyTests: XCTestCase {
    func render(_ steps: [(FilterID, [String: ParamValue])], _ image: PixelBuffer, space: WorkingSpace = .srgb) throws -> [Double] {
        var recipe = Recipe.chain(steps)
        recipe.workingSpace = space
        return try Renderer(backend: .cpu).render(recipe, images: ["main": image]).samples()
    }

    func grey(_ width: Int, _ height: Int, _ value: (Int, Int) -> UInt8) throws -> PixelBuffer {
        let image = PixelBuffer(width: width, height: height, format: .grey8)
        let bytes = try image.mutableHostBytes()
        for y in 0..<height { for x in 0..<width { bytes.storeBytes(of: value(x, y), toByteOffset: y * image.rowStride + x, as: UInt8.self) } }
        return image
    }

    /// One lit pixel dilates into the element itself: the (2r + 1)² square, or the lattice points within distance r
    /// (Gauss's circle count: 5, 13, 29, 49, 81 for r = 1…5), centred on it; erosion then takes it back to one pixel.
    func testAPointDilatesIntoTheElement() throws {
        let point = try grey(21, 19) { x, y in x == 10 && y == 9 ? 255 : 0 }
        let circleCounts = [1: 5, 2: 13, 3: 29, 4: 49, 5: 81]
        for radius in 1...5 {
            for shape in ["square", "disc"] {
                let params: [String: ParamValue] = ["radius": .number(Double(radius)), "shape": .string(shape)]
                let grown = try render([(.dilate, params)], point)
                var lit = 0
                for y in 0..<19 {
                    for x in 0..<21 {
                        let (dx, dy) = (x - 10, y - 9)
                        let inside = shape == "square" ? abs(dx) <= radius && abs(dy) <= radius : dx * dx + dy * dy <= radius * radius
                        XCTAssertEqual(grown[y * 21 + x], inside ? 255 : 0, "\(shape) r=\(radius) at \(x),\(y)")
                        if inside { lit += 1 }
                    }
                }
                XCTAssertEqual(lit, shape == "square" ? (2 * radius + 1) * (2 * radius + 1) : circleCounts[radius]!)
                XCTAssertEqual(try render([(.dilate, params), (.erode, params)], point), try point.samples(),
                               "closing a point's dilation gives back the point (\(shape) r=\(radius))")
            }
        }
    }

    /// Erosion is dilation of the complement (duality); erosion ≤ the image ≤ dilation (anti-extensive and
    /// extensive); an opening and a closing are idempotent. Exact: extremes pick values, they never round.
    func testDualityOrderAndIdempotence() throws {
        let image = try TestImages.crop("photos/camera_512_gray8.png", x: 100, y: 120, width: 61, height: 47)
        let original = try image.samples()
        for shape in ["square", "disc"] {
            for radius in [1, 2, 6] {
                let params: [String: ParamValue] = ["radius": .number(Double(radius)), "shape": .string(shape)]
                let label = "\(shape) r=\(radius)"
                let eroded = try render([(.erode, params)], image), dilated = try render([(.dilate, params)], image)
                XCTAssertEqual(eroded, try render([(.invert, [:]), (.dilate, params), (.invert, [:])], image), label)
                XCTAssertTrue(zip(eroded, original).allSatisfy { $0 <= $1 }, label)
                XCTAssertTrue(zip(dilated, original).allSatisfy { $0 >= $1 }, label)
                XCTAssertNotEqual(eroded, original, label)
                let opening: [(FilterID, [String: ParamValue])] = [(.erode, params), (.dilate, params)]
                let closing: [(FilterID, [String: ParamValue])] = [(.dilate, params), (.erode, params)]
                XCTAssertEqual(try render(opening + opening, image), try render(opening, image), "opening \(label)")
                XCTAssertEqual(try render(closing + closing, image), try render(closing, image), "closing \(label)")
            }
        }
    }

    /// A transparent neighbour neither darkens a dilation nor survives it: on premultiplied values, an opaque
    /// pixel's colour wins the maximum, and erosion makes the edge of a cut-out transparent.
    func testTransparencyGrowsAndShrinksWithTheShape() throws {
        let image = PixelBuffer(width: 9, height: 1, format: .rgba8)
        let bytes = try image.mutableHostBytes()
        for x in 0..<9 {
            let pixel: [UInt8] = x < 4 ? [0, 0, 0, 0] : [200, 60, 30, 255]
            for c in 0..<4 { bytes.storeBytes(of: pixel[c], toByteOffset: x * 4 + c, as: UInt8.self) }
        }
        let grown = try render([(.dilate, ["radius": 1])], image, space: .linear)
        XCTAssertEqual(Array(grown[12..<16]), [200, 60, 30, 255], "the opaque edge moves one pixel out, colour kept")
        XCTAssertEqual(Array(grown[8..<12]), [0, 0, 0, 0])
        let shrunk = try render([(.erode, ["radius": 1])], image, space: .linear)
        XCTAssertEqual(Array(shrunk[16..<20]), [0, 0, 0, 0], "the opaque edge moves one pixel in")
        XCTAssertEqual(Array(shrunk[20..<24]), [200, 60, 30, 255])
    }
}
