import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// Invariants of rotate and affine beyond the reference sweep: identities, the lossless path, the canvases, the
/// legacy angle spelling and refusals.
final class RotationTests: XCTestCase {
    let photo = { try! TestImages.small()[0].image }()

    func render(_ steps: [(FilterID, [String: ParamValue])], _ image: PixelBuffer? = nil) throws -> PixelBuffer {
        try Renderer(backend: .cpu).render(Recipe.chain(steps), images: ["main": image ?? photo])
    }

    func testWholeTurnsAndIdentityMatricesLeaveTheImageAlone() throws {
        let original = try photo.samples()
        for degrees in [0.0, 360, -360] {
            XCTAssertEqual(try render([(.rotate, ["degrees": .number(degrees)])]).samples(), original, "\(degrees)°")
        }
        XCTAssertEqual(try render([(.affine, [:])]).samples(), original)
    }

    /// Quarter turns move pixels: the same as the general path would give at exact pixel centres, with no
    /// resampling at all, and −90 is 270.
    func testQuarterTurnsAreLossless() throws {
        let turned = try render([(.rotate, ["degrees": -90])])
        XCTAssertEqual(try turned.samples(), try render([(.rotate, ["degrees": 270])]).samples())
        let back = try render([(.rotate, ["degrees": 90])], turned)
        XCTAssertEqual(try back.samples(), try photo.samples())
        // A translation by whole pixels through affine is exact too (bicubic weights 1, 0, 0, 0).
        let shifted = try render([(.affine, ["matrix": .numbers([1, 0, 3, 0, 1, 2]), "width": 30, "height": 20])])
        let s = try shifted.samples(), o = try photo.samples(), n = shifted.format.channels
        for (x, y) in [(7, 5), (0, 0), (26, 17)] {
            for c in 0..<3 { XCTAssertEqual(s[((y + 2) * 30 + x + 3) * n + c], o[(y * 40 + x) * 3 + c], "\(x), \(y)") }
        }
    }

    func testCanvasSizes() throws {
        // 40×28 turned 30°: fit holds the rotated bounds, crop keeps the size, inside is within both.
        let fit = try render([(.rotate, ["degrees": 30])]), crop = try render([(.rotate, ["degrees": 30, "canvas": "crop"])])
        let inside = try render([(.rotate, ["degrees": 30, "canvas": "inside"])])
        XCTAssertEqual(fit.width, Int(ceil(40 * cos(Double.pi / 6) + 28 * 0.5)))
        XCTAssertEqual(fit.height, Int(ceil(40 * 0.5 + 28 * cos(Double.pi / 6))))
        XCTAssertEqual([crop.width, crop.height], [40, 28])
        XCTAssertLessThan(inside.width, 40)
        XCTAssertEqual(Double(inside.width) / Double(inside.height), 40.0 / 28, accuracy: 0.1)
    }

    /// Straightening's canvas never shows the background: an opaque photo stays opaque (and stays RGB), while fit
    /// and crop expose transparent corners.
    func testInsideCanvasShowsNoBackground() throws {
        for degrees in [-3.5, 7, 30] {
            let inside = try render([(.rotate, ["degrees": .number(degrees), "canvas": "inside", "kernel": "lanczos3"])])
            XCTAssertEqual(inside.format.channels, 3, "\(degrees)°")
        }
        let fit = try render([(.rotate, ["degrees": 7])])
        XCTAssertEqual(fit.format.channels, 4)
        XCTAssertEqual(try fit.samples()[3], 0, "a corner of the fit canvas is transparent")
    }

    /// Recipes written when the angle was a choice of strings still load, and give the same image.
    /// straighten is rotate with the inside canvas, to the sample, and shows no background.
    func testStraightenIsRotateInside() throws {
        for (degrees, kernel) in [(3.5, "bicubic"), (-12.0, "lanczos3"), (0.0, "bilinear")] {
            let straightened = try render([(.straighten, ["degrees": .number(degrees), "kernel": .string(kernel)])])
            let turned = try render([(.rotate, ["degrees": .number(degrees), "canvas": "inside", "kernel": .string(kernel)])])
            XCTAssertEqual([straightened.width, straightened.height], [turned.width, turned.height], "\(degrees)°")
            XCTAssertEqual(try straightened.samples(), try turned.samples(), "\(degrees)°")
            XCTAssertEqual(straightened.format.hasAlpha, photo.format.hasAlpha, "no transparent corners")
        }
    }

    func testTheAngleMayBeWrittenAsAString() throws {
        let legacy = try Recipe(json: Data(#"{"version":1,"steps":[{"op":"rotate","degrees":"180"}]}"#.utf8))
        let current = try Recipe(json: Data(#"{"version":1,"steps":[{"op":"rotate","degrees":180}]}"#.utf8))
        XCTAssertEqual(legacy, current)
        XCTAssertThrowsError(try Recipe(json: Data(#"{"version":1,"steps":[{"op":"rotate","degrees":"half"}]}"#.utf8)))
    }

    func testSingularAndOutOfRangeMatricesAreRefusedWithTheirPath() throws {
        for matrix in ["[1, 2, 0, 2, 4, 0]", "[0, 0, 0, 0, 0, 0]"] {
            let json = #"{"version":1,"steps":[{"op":"affine","matrix":\#(matrix)}]}"#
            XCTAssertThrowsError(try Recipe(json: Data(json.utf8))) { error in
                XCTAssertTrue("\(error)".contains("steps[0]") && "\(error)".contains("singular"), "\(error)")
            }
        }
        let huge = #"{"version":1,"steps":[{"op":"rotate","degrees":720}]}"#
        XCTAssertThrowsError(try Recipe(json: Data(huge.utf8))) { error in XCTAssertTrue("\(error)".contains("degrees"), "\(error)") }
    }

    /// A shrinking affine averages what it covers instead of aliasing: a one-pixel checkerboard shrunk 4× by a
    /// rotated-and-scaled matrix comes out mid-grey, as resize would give.
    func testShrinkingAffinesDoNotAlias() throws {
        let board = try Renderer(backend: .cpu).render(
            Recipe.chain([(.checkerboard, ["size": 1, "width": 64, "height": 64,
                                           "first": .color(RGBA(0, 0, 0, 1)), "second": .color(RGBA(1, 1, 1, 1))])],
                         workingSpace: .srgb), images: ["main": photo])
        let t = 0.3, s = 0.25
        let matrix: [Double] = [s * cos(t), -s * sin(t), 8, s * sin(t), s * cos(t), 4]
        let out = try Renderer(backend: .cpu).render(
            Recipe.chain([(.affine, ["matrix": .numbers(matrix), "width": 16, "height": 16, "kernel": "lanczos3"])],
                         workingSpace: .srgb), images: ["main": board])
        let v = try out.samples()
        // The centre pixel: well inside the covered area.
        XCTAssertEqual(v[(10 * 16 + 10) * (out.format.channels)], 127.5, accuracy: 12)
    }
}
