import FilterCore
import FilterRecipe
import PNGCodec
import TestSupport
import XCTest

/// `trim` finds the box libvips's find_trim and sharp's trim define: 3×3 median, then the pixels more than threshold
/// codes from the background (the top-left pixel, or a given colour).
final class TrimTests: XCTestCase {
    /// A photo crop on a border of `border` colour, `top`/`left`/`right`/`bottom` wide, with one stray pixel of
    /// another colour in the border (a median removes it; a plain threshold would not).
    func bordered(_ format: PixelFormat, border: [Double], top: Int, left: Int, right: Int, bottom: Int) throws -> PixelBuffer {
        let photo = try TestImages.crop("photos/chelsea_451x300_rgb8.png", x: 120, y: 60, width: 31, height: 17)
        let w = left + photo.width + right, h = top + photo.height + bottom
        let out = PixelBuffer(width: w, height: h, format: format)
        let src = try photo.samples()
        let maxCode = format.depth == 16 ? 65535.0 : 255.0
        var samples = [Int](repeating: 0, count: w * h * format.channels)
        for y in 0..<h {
            for x in 0..<w {
                let inside = x >= left && x < left + photo.width && y >= top && y < top + photo.height
                var rgba = border
                if inside {
                    let i = ((y - top) * photo.width + x - left) * 3
                    rgba = [Double(src[i]) / 255, Double(src[i + 1]) / 255, Double(src[i + 2]) / 255, 1]
                }
                if x == 1 && y == h - 2 { rgba = [0, 0.5, 1, 1] }  // the stray pixel
                let values: [Double]
                switch format.channels {
                case 1: values = [0.2126 * rgba[0] + 0.7152 * rgba[1] + 0.0722 * rgba[2]]
                case 2: values = [0.2126 * rgba[0] + 0.7152 * rgba[1] + 0.0722 * rgba[2], rgba[3]]
                case 3: values = Array(rgba[0..<3])
                default: values = rgba
                }
                for c in 0..<format.channels { samples[(y * w + x) * format.channels + c] = Int((values[c] * maxCode).rounded()) }
            }
        }
        try Self.store(samples, in: out)
        return out
    }

    func testFindsTheBorderOnEveryLayoutAndBothBackends() throws {
        let formats: [PixelFormat] = [.rgb8, .rgba8, .rgb16, .rgba16, .grey8, .greyA8, .grey16]
        for format in formats {
            let image = try bordered(format, border: [1, 1, 1, 1], top: 4, left: 7, right: 3, bottom: 5)
            for backend in [Backend.cpu, .vulkan] {
                let trimmed = try Renderer(backend: backend).render(Recipe.chain([(.trim, [:])]), images: ["main": image])
                XCTAssertEqual(trimmed.width, 31, "\(format) \(backend)")
                XCTAssertEqual(trimmed.height, 17, "\(format) \(backend)")
            }
        }
    }

    func testATransparentBorderIsTrimmed() throws {
        let image = try bordered(.rgba8, border: [0.3, 0.9, 0.1, 0], top: 0, left: 6, right: 0, bottom: 2)
        let trimmed = try Renderer(backend: .cpu).render(Recipe.chain([(.trim, [:])]), images: ["main": image])
        XCTAssertEqual([trimmed.width, trimmed.height], [31, 17])
    }

    /// An explicit background: a black border is kept when the background is white, found when it is black.
    func testAGivenBackground() throws {
        let image = try bordered(.rgb8, border: [0, 0, 0, 1], top: 3, left: 3, right: 3, bottom: 3)
        let white = Recipe.chain([(.trim, ["autoBackground": false, "background": .color(.white)])])
        let kept = try Renderer(backend: .cpu).render(white, images: ["main": image])
        XCTAssertEqual([kept.width, kept.height], [37, 23], "every pixel differs from white")
        let black = Recipe.chain([(.trim, ["autoBackground": false, "background": .color(.black)])])
        let found = try Renderer(backend: .cpu).render(black, images: ["main": image])
        XCTAssertEqual([found.width, found.height], [31, 17])
    }

    /// A flat image has no box: it is kept whole. A threshold of 255 takes everything for background.
    func testNothingToTrimKeepsTheImage() throws {
        let flat = PixelBuffer(width: 9, height: 5, format: .rgb8)
        try Self.store([Int](repeating: 200, count: 9 * 5 * 3), in: flat)
        let out = try Renderer(backend: .cpu).render(Recipe.chain([(.trim, [:])]), images: ["main": flat])
        XCTAssertEqual([out.width, out.height], [9, 5])
        let image = try bordered(.rgb8, border: [1, 1, 1, 1], top: 4, left: 7, right: 3, bottom: 5)
        let all = try Renderer(backend: .cpu).render(Recipe.chain([(.trim, ["threshold": 255])]), images: ["main": image])
        XCTAssertEqual([all.width, all.height], [image.width, image.height])
    }

    /// Trim answers before lowering, so what follows sees the trimmed size: a resize to half of it.
    func testLaterStepsSeeTheTrimmedSize() throws {
        let image = try bordered(.rgb8, border: [1, 1, 1, 1], top: 4, left: 7, right: 3, bottom: 5)
        let recipe = Recipe.chain([(.trim, [:]), (.resize, ["scale": 2]), (.trim, ["threshold": 255])])
        let out = try Renderer(backend: .cpu).render(recipe, images: ["main": image])
        XCTAssertEqual([out.width, out.height], [62, 34])
    }

    /// From a file, the analysis reads the file again; --explain says what it found.
    func testExplainNamesTheBox() throws {
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let image = try bordered(.rgb8, border: [1, 1, 1, 1], top: 4, left: 7, right: 3, bottom: 5)
        let path = scratch.appendingPathComponent("bordered.png").path
        try PNGEncoder.encode(image, to: path)
        let text = try Renderer(backend: .cpu).explain(Recipe.chain([(.trim, [:])]), inputs: ["main": path])
        XCTAssertTrue(text.contains("trim keeps the 31×17 box at (7, 4)"), text)
    }

    static func store(_ samples: [Int], in buffer: PixelBuffer) throws {
        let base = try buffer.mutableHostBytes()
        let n = buffer.width * buffer.format.channels
        for y in 0..<buffer.height {
            for i in 0..<n {
                let v = samples[y * n + i]
                if buffer.format.depth == 16 {
                    (base + y * buffer.rowStride).assumingMemoryBound(to: UInt16.self)[i] = UInt16(v)
                } else {
                    (base + y * buffer.rowStride).assumingMemoryBound(to: UInt8.self)[i] = UInt8(v)
                }
            }
        }
    }
}
