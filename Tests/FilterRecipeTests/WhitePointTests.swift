import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// `whitePoint`: the picked colour becomes the neutral grey of its own luminance; a white pick changes nothing; the
/// float64 reference (Lindbloom's published Bradford matrices) runs in FilterReferenceTests at every swept setting.
final class WhitePointTests: XCTestCase {
    func testThePickedColourBecomesNeutral() throws {
        let cast = RGBA(0.85, 0.72, 0.55)  // a warm grey card under tungsten light
        let image = PixelBuffer(width: 2, height: 1, format: .rgb8)
        try TrimTests.store([Int((0.85 * 255).rounded()), Int((0.72 * 255).rounded()), Int((0.55 * 255).rounded()), 255, 255, 255], in: image)
        for space in [WorkingSpace.linear, .srgb] {
            for backend in [Backend.cpu, .vulkan] {
                let out = try Renderer(backend: backend).render(Recipe.chain([(.whitePoint, ["color": .color(cast)])], workingSpace: space),
                                                                images: ["main": image])
                let s = try out.samples()
                XCTAssertLessThanOrEqual(max(abs(s[0] - s[1]), abs(s[1] - s[2]), abs(s[0] - s[2])), 1, "\(space) \(backend): \(s[0..<3])")
                XCTAssertGreaterThan(s[5], s[3], "\(space) \(backend): white turns bluish when a warm grey is made neutral")
            }
            let same = try Renderer(backend: .cpu).render(Recipe.chain([(.whitePoint, [:])], workingSpace: space), images: ["main": image])
            XCTAssertLessThanOrEqual(Difference.between(try image.samples(), try same.samples(), width: 2, channels: 3).worst, 1)
        }
        XCTAssertThrowsError(try Recipe.chain([(.whitePoint, ["color": .color(.black)])]).validated())
    }
}
