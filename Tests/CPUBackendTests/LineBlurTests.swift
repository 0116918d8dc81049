import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// Motion and zoom blurs against what their definitions imply; the float64 reference and CPU ≡ Vulkan checks run in
/// FilterReferenceTests and CrossBackendTests with every swept parameter.
final class LineBlurTests: XCTestCase {
    let photo = try! TestImages.crop("photos/camera_512_gray8.png", x: 200, y: 150, width: 41, height: 33)

    func render(_ step: (FilterID, [String: ParamValue]), _ image: PixelBuffer) throws -> [Double] {
        var recipe = Recipe.chain([step])
        recipe.workingSpace = .srgb
        return try Renderer(backend: .cpu).render(recipe, images: ["main": image]).samples()
    }

    /// Along an axis with a whole radius the samples land on pixel centres: a horizontal motion blur is the mean of
    /// the 2r + 1 pixels of the row around each pixel (edges replicated), a vertical one of the column's.
    func testAxisAlignedMotionIsABoxAlongTheAxis() throws {
        let original = try photo.samples(), (w, h) = (41, 33)
        for (angle, horizontal) in [(0.0, true), (180, true), (90, false), (-90, false)] {
            for r in [1, 3, 8] {
                let found = try render((.motionBlur, ["radius": .number(Double(r)), "angle": .number(angle)]), photo)
                var worst = 0.0
                for y in 0..<h {
                    for x in 0..<w {
                        let sum = (-r...r).reduce(0.0) { total, k in
                            let (u, v) = horizontal ? (min(max(x + k, 0), w - 1), y) : (x, min(max(y + k, 0), h - 1))
                            return total + original[v * w + u]
                        }
                        worst = max(worst, abs(found[y * w + x] - (sum / Double(2 * r + 1)).rounded()))
                    }
                }
                XCTAssertLessThanOrEqual(worst, 1, "angle \(angle) r=\(r)")
            }
        }
    }

    /// A flat image stays flat, whatever the streak; the pixel at a zoom's centre keeps its value (one sample).
    func testFlatStaysFlatAndTheZoomCentreStays() throws {
        let flat = PixelBuffer(width: 23, height: 17, format: .grey8)
        let bytes = try flat.mutableHostBytes()
        for i in 0..<(flat.rowStride * 17) { bytes.storeBytes(of: 137, toByteOffset: i, as: UInt8.self) }
        for step: (FilterID, [String: ParamValue]) in [(.motionBlur, ["radius": 6.5, "angle": 21]),
                                                        (.zoomBlur, ["amount": 40, "centerX": 0.3, "centerY": 0.9])] {
            XCTAssertTrue(try render(step, flat).allSatisfy { $0 == 137 }, "\(step.0)")
        }
        // 41×33 with the centre at (0.5·41 − ½, 0.5·33 − ½) = (20, 16): a pixel index.
        let zoomed = try render((.zoomBlur, ["amount": 25]), photo), original = try photo.samples()
        XCTAssertEqual(zoomed[16 * 41 + 20], original[16 * 41 + 20])
        XCTAssertNotEqual(zoomed, original)
    }

    /// Streaks radiate from the centre: each output pixel averages the way toward the centre, so a bright pixel on
    /// the centre's row lights the pixels beyond it (away from the centre) and none between it and the centre; a
    /// motion blur at 90° moves it along its column only.
    func testStreaksFollowTheirPath() throws {
        let dot = PixelBuffer(width: 31, height: 9, format: .grey8)
        let bytes = try dot.mutableHostBytes()
        bytes.storeBytes(of: 255, toByteOffset: 4 * dot.rowStride + 25, as: UInt8.self)
        // Centre (0.5/31·31 − ½, 4.5/9·9 − ½) = (0, 4): on the dot's row, at its left.
        let zoomed = try render((.zoomBlur, ["amount": 200, "centerX": .number(0.5 / 31), "centerY": 0.5]), dot)
        XCTAssertTrue((26..<31).allSatisfy { zoomed[4 * 31 + $0] > 0 }, "the streak runs away from the centre")
        XCTAssertTrue((0..<25).allSatisfy { zoomed[4 * 31 + $0] == 0 }, "and not toward it")
        let moved = try render((.motionBlur, ["radius": 3, "angle": 90]), dot)
        for y in 0..<9 { for x in 0..<31 where moved[y * 31 + x] > 0 { XCTAssertEqual(x, 25, "lit off the column at \(x),\(y)") } }
    }
}
