import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// Renders from and to memory: encoded bytes (PNG, JPEG) and raw pixels, without touching the file system.
final class InMemoryTests: XCTestCase {
    func testEncodedBytesInAndOutMatchTheFileRender() throws {
        let recipe = try Image(input: "main").resize(width: 120).vignette().recipe
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/baseline_420.jpg")))
        let (png, report) = try Renderer(backend: .cpu).render(recipe, encoded: ["main": jpeg], as: .png)
        XCTAssertEqual(report.width, 120)
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("o.png").path
        try Renderer(backend: .cpu).render(recipe, inputs: ["main": Fixtures.path("jpeg/baseline_420.jpg")], output: file)
        XCTAssertEqual(png, try Data(contentsOf: URL(fileURLWithPath: file)), "the same bytes as the file render")
        let (jpegOut, _) = try Renderer(backend: .cpu).render(recipe, encoded: ["main": png], as: .jpeg)
        XCTAssertEqual(Array(jpegOut.prefix(3)), [0xFF, 0xD8, 0xFF])
        // Bad bytes are input errors naming the input.
        XCTAssertThrowsError(try Renderer(backend: .cpu).render(recipe, encoded: ["main": Data("BM\u{0}\u{0}".utf8)], as: .png)) {
            guard case RenderError.input(let failure) = $0 else { return XCTFail("\($0)") }
            XCTAssertEqual(failure.kind, .notAnImage)
            XCTAssertTrue(failure.path.contains("main"))
        }
        XCTAssertThrowsError(try Renderer(backend: .cpu).render(recipe, encoded: ["main": jpeg.prefix(jpeg.count / 2)], as: .png)) {
            guard case RenderError.input(let failure) = $0 else { return XCTFail("\($0)") }
            XCTAssertEqual(failure.kind, .corrupt)
        }
    }

    func testRawPixelsInAndOut() throws {
        // 3×2 RGB, rows padded to 12 bytes.
        var bytes = Data(count: 24)
        for y in 0..<2 { for x in 0..<3 { for c in 0..<3 { bytes[y * 12 + x * 3 + c] = UInt8(40 * x + 100 * y + 10 * c) } } }
        let image = try PixelBuffer(width: 3, height: 2, format: .rgb8, copying: bytes, rowStride: 12)
        var invert = try Image(input: "main").invert()
        invert.workingSpace = .srgb  // 1 − v on encoded values: 255 − code exactly
        let inverted = try Renderer(backend: .cpu).render(invert.recipe, images: ["main": image])
        let out = try inverted.packedData()
        XCTAssertEqual(out.count, 18)
        for y in 0..<2 { for x in 0..<3 { for c in 0..<3 { XCTAssertEqual(out[(y * 3 + x) * 3 + c], 255 - bytes[y * 12 + x * 3 + c]) } } }
        // Layouts that do not fit are errors, not traps.
        XCTAssertThrowsError(try PixelBuffer(width: 0, height: 2, format: .rgb8, copying: bytes))
        XCTAssertThrowsError(try PixelBuffer(width: 3, height: 2, format: .rgb8, copying: bytes, rowStride: 4))
        XCTAssertThrowsError(try PixelBuffer(width: 30, height: 2, format: .rgb8, copying: bytes))
        XCTAssertThrowsError(try Renderer(backend: .cpu).render(Image(input: "main").invert().recipe, images: ["main": image], format: .rgba16f))
        var options = Renderer.Options()
        options.depth = 12
        XCTAssertThrowsError(try Renderer(backend: .cpu, options: options).render(Image(input: "main").invert().recipe, images: ["main": image]))
    }
}
