import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// Invariants of perspective beyond the reference sweep: a rectangle of corners is a crop, corners and the matrix
/// that does the same agree, points land where the homography sends them, the view's far side is background, and
/// bad corners or matrices are refused naming the step.
final class PerspectiveTests: XCTestCase {
    let photo = { try! TestImages.small()[0].image }()

    func render(_ params: [String: ParamValue], _ image: PixelBuffer? = nil) throws -> PixelBuffer {
        try Renderer(backend: .cpu).render(Recipe.chain([(.perspective, params)]), images: ["main": image ?? photo])
    }

    func testUprightCornersAreACrop() throws {
        let corrected = try render(["corners": .numbers([4, 2, 24, 2, 24, 12, 4, 12]), "kernel": "nearest"])
        let cropped = try Renderer(backend: .cpu).render(Recipe.chain([(.crop, ["x": 4, "y": 2, "width": 20, "height": 10])]),
                                                         images: ["main": photo])
        XCTAssertEqual([corrected.width, corrected.height], [20, 10], "the size of the sides")
        XCTAssertEqual(try corrected.samples(), try cropped.samples())
        // The whole image's corners leave it alone.
        XCTAssertEqual(try render(["corners": .numbers([0, 0, 40, 0, 40, 28, 0, 28])]).samples(), try photo.samples())
    }

    /// The quad made upright by its corners, and by the matrix that maps the quad onto the rectangle (solved
    /// independently, by the direct linear transform), give the same pixels; the size comes from the sides.
    func testCornersAndTheirMatrixAgree() throws {
        let corners: [Double] = [5, 3, 36, 6, 33, 25, 2, 22]
        let byCorners = try render(["corners": .numbers(corners), "kernel": "lanczos3"])
        let top = hypot(31.0, 3.0), bottom = hypot(31.0, 3.0), left = hypot(3.0, 19.0), right = hypot(3.0, 19.0)
        XCTAssertEqual(byCorners.width, Int(((top + bottom) / 2).rounded()))
        XCTAssertEqual(byCorners.height, Int(((left + right) / 2).rounded()))
        let (w, h) = (Double(byCorners.width), Double(byCorners.height))
        let matrix = ReferenceFilters.homography(from: corners, to: [0, 0, w, 0, w, h, 0, h])
        let byMatrix = try render(["matrix": .numbers(matrix), "width": .number(w), "height": .number(h), "kernel": "lanczos3"])
        let d = Difference.between(try byCorners.samples(), try byMatrix.samples(), width: byCorners.width,
                                   channels: byCorners.format.channels)
        XCTAssertLessThanOrEqual(d.worst, 1, "\(d)")
    }

    /// A lone bright pixel lands where the homography sends its centre.
    func testAPointLandsWhereTheHomographySendsIt() throws {
        let image = PixelBuffer(width: 64, height: 48, format: .grey8)
        let bytes = try image.mutableHostBytes().assumingMemoryBound(to: UInt8.self)
        bytes.update(repeating: 0, count: 64 * 48)
        let corners: [Double] = [6, 4, 58, 9, 55, 44, 3, 40]
        for (px, py) in [(20, 15), (40, 30), (12, 35)] {
            bytes[py * 64 + px] = 255
            defer { bytes[py * 64 + px] = 0 }
            let out = try render(["corners": .numbers(corners), "width": 64, "height": 48, "kernel": "bilinear"], image)
            let s = try out.samples(), n = out.format.channels
            var best = (value: -1, x: 0, y: 0), weighted = (x: 0.0, y: 0.0, sum: 0.0)
            for y in 0..<out.height {
                for x in 0..<out.width {
                    let v = Int(s[(y * out.width + x) * n])
                    if v > best.value { best = (v, x, y) }
                    weighted = (weighted.x + Double(v) * (Double(x) + 0.5), weighted.y + Double(v) * (Double(y) + 0.5),
                                weighted.sum + Double(v))
                }
            }
            let forward = ReferenceFilters.homography(from: corners, to: [0, 0, 64, 0, 64, 48, 0, 48])
            let (cx, cy) = (Double(px) + 0.5, Double(py) + 0.5)
            let wq = forward[6] * cx + forward[7] * cy + forward[8]
            let expected = ((forward[0] * cx + forward[1] * cy + forward[2]) / wq,
                            (forward[3] * cx + forward[4] * cy + forward[5]) / wq)
            XCTAssertEqual(weighted.x / weighted.sum, expected.0, accuracy: 0.35, "(\(px), \(py))")
            XCTAssertEqual(weighted.y / weighted.sum, expected.1, accuracy: 0.35, "(\(px), \(py))")
            XCTAssertGreaterThan(best.value, 0)
        }
    }

    /// Past the vanishing line the output sees nothing: the background, and an opaque photo gains alpha.
    func testTheFarSideOfTheViewIsBackground() throws {
        // x′ = x / (0.05·x + 1) never reaches 20: columns from 20 on see no input.
        let out = try render(["matrix": .numbers([1, 0, 0, 0, 1, 0, 0.05, 0, 1]), "background": .color(RGBA(1, 0, 0, 1))])
        let s = try out.samples(), n = out.format.channels
        for y in [0, 13, 27] {
            for x in [21, 30, 39] { XCTAssertEqual(Array(s[(y * 40 + x) * n..<(y * 40 + x) * n + 3]), [255, 0, 0], "(\(x), \(y))") }
        }
        let clear = try render(["matrix": .numbers([1, 0, 0, 0, 1, 0, 0.05, 0, 1])])
        XCTAssertEqual(clear.format.channels, 4)
        XCTAssertEqual(try clear.samples()[(5 * 40 + 35) * 4 + 3], 0)
    }

    /// With a transparent background the output keeps an alpha channel unless the quad lies inside the input by
    /// the kernel's widest reach (a projective map's reach varies, up to 16 × the radius: 32 pixels for bicubic);
    /// an opaque background keeps an opaque photo opaque.
    func testAlphaFollowsTheBackground() throws {
        let inside: [String: ParamValue] = ["corners": .numbers([8, 6, 30, 7, 29, 21, 9, 20])]
        XCTAssertEqual(try render(inside).format.channels, 4)
        var opaque = inside
        opaque["background"] = .color(RGBA(0, 0, 0, 1))
        XCTAssertEqual(try render(opaque).format.channels, 3)
    }

    /// Corners inside the input by the widest reach: the background cannot show, so the result is opaque — and
    /// no pixel reads it: the result is the same on a black and a white background.
    func testCornersInsideTheInputGiveAnOpaqueResult() throws {
        let image = try TestImages.crop("photos/chelsea_451x300_rgb8.png", x: 100, y: 60, width: 160, height: 120)
        let corners: [String: ParamValue] = ["corners": .numbers([40, 34, 122, 36, 126, 86, 35, 84])]
        let clear = try render(corners, image)
        XCTAssertEqual(clear.format.channels, 3)
        var black = corners, white = corners
        black["background"] = .color(RGBA(0, 0, 0, 1))
        white["background"] = .color(RGBA(1, 1, 1, 1))
        XCTAssertEqual(try render(black, image).samples(), try clear.samples())
        XCTAssertEqual(try render(white, image).samples(), try clear.samples())
        // One corner nearer the edge than the reach: the transparent background may show.
        let near: [String: ParamValue] = ["corners": .numbers([20, 34, 122, 36, 126, 86, 35, 84])]
        XCTAssertEqual(try render(near, image).format.channels, 4)
    }

    func testBadCornersAndMatricesAreRefusedWithTheirPath() throws {
        let cases = [
            (#""corners": [0, 0, 10, 10, 10, 0, 0, 10]"#, "convex"),  // crossed: a bow tie
            (#""corners": [0, 0, 10, 0, 20, 0, 0, 10]"#, "convex"),   // three on a line
            (#""corners": [0, 0, 10, 0, 10, 10, 0, 10], "matrix": [2, 0, 0, 0, 2, 0, 0, 0, 1]"#, "both"),
            (#""matrix": [1, 2, 3, 2, 4, 6, 0, 0, 1]"#, "singular"),
            (#""corners": [0, 0, 10, 0, 10]"#, "8 numbers"),
        ]
        for (params, expected) in cases {
            let json = #"{"version":1,"steps":[{"op":"perspective",\#(params)}]}"#
            XCTAssertThrowsError(try Recipe(json: Data(json.utf8)), params) { error in
                XCTAssertTrue("\(error)".contains("steps[0]") && "\(error)".contains(expected), "\(error)")
            }
        }
    }
}
