import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// `text` beyond the reference sweep: a multi-script string set as pango-view sets it, shaping that joins and
/// reorders, placement and scale, and the errors a caption can meet.
final class TextTests: XCTestCase {
    func render(_ params: [String: ParamValue], width: Int = 0, height: Int = 0) throws -> PixelBuffer {
        var p = params
        if width > 0 { p["width"] = .number(Double(width)) }
        if height > 0 { p["height"] = .number(Double(height)) }
        let canvas = try TestImages.small()[0].image
        return try Renderer(backend: .cpu).render(Recipe.chain([(.text, p)]), images: ["main": canvas])
    }

    /// How many codes each pixel of `ours` (0…255) is off pango-view's coverage (0…1).
    func codesOff(_ ours: [Int], _ reference: [Double]) -> [Int] {
        zip(ours, reference).map { abs($0 - Int(($1 * 255).rounded())) }
    }

    /// The alpha channel (the coverage with an opaque colour), 0…255.
    func alpha(_ image: PixelBuffer) throws -> [Int] {
        let s = try image.samples(), n = image.format.channels
        return (0..<image.width * image.height).map { Int(s[$0 * n + n - 1]) }
    }

    /// Latin, Arabic (joined, right to left), Devanagari (conjuncts, reordered vowel signs) and CJK in one line:
    /// every pixel within 1 code of pango-view's.
    func testMultiScriptTextMatchesPangoView() throws {
        let text = "Hello, مرحبا, नमस्ते, 你好"
        for size in [13.0, 24, 41.5] {
            let reference = TextReference.coverage(text: text, font: "DejaVu Sans", pixels: size, margin: 0)
            let ours = try render(["text": .string(text), "size": .number(size), "color": .color(RGBA(0, 0, 0, 1)),
                                   "position": "northwest"], width: reference.width, height: reference.height)
            let a = try alpha(ours)
            XCTAssertLessThanOrEqual(codesOff(a, reference.values).max() ?? 0, 1, "\(size) px")
            XCTAssertGreaterThan(a.filter { $0 > 128 }.count, reference.width, "ink at \(size) px")
        }
    }

    /// A bold asked of a family that has none (Lohit Devanagari, Droid Sans Fallback): fontconfig emboldens the
    /// regular outlines, which PangoFT2 does not do, so these glyphs are drawn by cairo. Every pixel within 1 code of
    /// pango-view's but for at most 4 within 24 (cairo's 8-bit alpha surface, ours, and its 32-bit colour one,
    /// pango-view's, differ at two pixels of the Devanagari word, 16 and 15 codes: measured with cairo alone), and
    /// heavier than the regular weight by a fifth or more.
    func testSyntheticBoldMatchesPangoView() throws {
        for (text, font) in [("नमस्ते", "Lohit Devanagari"), ("你好", "Droid Sans Fallback")] {
            let reference = TextReference.coverage(text: text, font: font, pixels: 30, weight: "bold", margin: 0)
            func ink(_ weight: String) throws -> [Int] {
                try alpha(try render(["text": .string(text), "font": .string(font), "size": 30, "weight": .string(weight),
                                      "color": .color(RGBA(0, 0, 0, 1)), "position": "northwest"],
                                     width: reference.width, height: reference.height))
            }
            let bold = try ink("bold"), regular = try ink("normal")
            let errors = codesOff(bold, reference.values)
            XCTAssertLessThanOrEqual(errors.filter { $0 > 1 }.count, 4, font)
            XCTAssertLessThanOrEqual(errors.max() ?? 0, 24, font)
            XCTAssertGreaterThan(Double(bold.reduce(0, +)), 1.2 * Double(regular.reduce(0, +)), "\(font): not emboldened")
        }
    }

    /// A colour font (Noto Color Emoji, fontconfig's fallback for emoji; Debian's fonts-noto-color-emoji): PangoFT2
    /// cannot draw its bitmaps, so this text goes through cairo, whose coverage is the glyphs' alpha. Every pixel
    /// within 1 code of pango-view's, and the emoji inked.
    func testColourEmojiMatchesPangoView() throws {
        let text = "ok 😀🎉"
        let reference = TextReference.coverage(text: text, font: "DejaVu Sans", pixels: 30, margin: 0)
        let ink = try alpha(try render(["text": .string(text), "size": 30, "color": .color(RGBA(0, 0, 0, 1)),
                                        "position": "northwest"], width: reference.width, height: reference.height))
        XCTAssertLessThanOrEqual(codesOff(ink, reference.values).max() ?? 0, 1)
        // The emoji take the right part of the line: more than half its ink.
        let w = reference.width, right = (0..<ink.count).filter { $0 % w >= w / 3 }.reduce(0) { $0 + ink[$1] }
        XCTAssertGreaterThan(2 * right, ink.reduce(0, +), "the emoji are not drawn")
    }

    /// Shaping changes the glyphs: Arabic letters join and Devanagari forms conjuncts, so the word set whole
    /// differs from the same letters kept apart by zero-width non-joiners (which only stop shaping across them).
    func testShapingJoinsAndFormsConjuncts() throws {
        for (word, apart) in [("مرحبا", "م\u{200C}ر\u{200C}ح\u{200C}ب\u{200C}ا"), ("क्ष", "क्\u{200C}ष")] {
            let params: [String: ParamValue] = ["size": 32, "color": .color(RGBA(0, 0, 0, 1)), "position": "northwest"]
            var whole = params, separate = params
            whole["text"] = .string(word)
            separate["text"] = .string(apart)
            let a = try alpha(try render(whole, width: 200, height: 60))
            let b = try alpha(try render(separate, width: 200, height: 60))
            let differing = zip(a, b).filter { abs($0 - $1) > 64 }.count
            XCTAssertGreaterThan(differing, 40, "\(word): shaped and unshaped look the same")
        }
    }

    /// Right-to-left text runs from the right: in "اب" (alef, then beh; alef never joins the letter after it) the
    /// beh is drawn on the left, where it looks as it does alone.
    func testRightToLeftRunsFromTheRight() throws {
        func coverage(_ text: String) throws -> [Int] {
            try alpha(try render(["text": .string(text), "size": 40, "color": .color(RGBA(0, 0, 0, 1)),
                                  "position": "northwest"], width: 120, height: 60))
        }
        let word = try coverage("اب"), beh = try coverage("ب"), alef = try coverage("ا")
        let behWidth = (0..<120).filter { x in (0..<60).contains { beh[$0 * 120 + x] > 128 } }.max()! + 1
        func difference(_ other: [Int]) -> Int {
            (0..<60).reduce(0) { sum, y in sum + (0..<behWidth).reduce(0) { $0 + abs(word[y * 120 + $1] - other[y * 120 + $1]) } }
        }
        XCTAssertLessThan(difference(beh) * 4, difference(alef), "the beh should lead on the left")
    }

    /// relativeSize scales with the canvas: twice the height, twice the line.
    func testRelativeSizeScalesWithTheImage() throws {
        func inkHeight(_ w: Int, _ h: Int) throws -> Int {
            let a = try alpha(try render(["text": "Hg", "relativeSize": 0.2, "color": .color(RGBA(1, 1, 1, 1))], width: w, height: h))
            let rows = (0..<h).filter { y in (0..<w).contains { a[y * w + $0] > 128 } }
            return rows.max()! - rows.min()! + 1
        }
        let small = try inkHeight(200, 100), large = try inkHeight(400, 200)
        XCTAssertEqual(Double(large) / Double(small), 2, accuracy: 0.12, "\(small) → \(large)")
    }

    /// A southeast block sits the margin from the right and bottom edges; a northwest one from the left and top.
    func testPositionAndMargin() throws {
        let (w, h) = (240, 120)
        for (position, nearRight) in [("southeast", true), ("northwest", false)] {
            let a = try alpha(try render(["text": "Mark", "size": 30, "color": .color(RGBA(1, 1, 1, 1)),
                                          "position": .string(position), "margin": 0.1], width: w, height: h))
            let columns = (0..<w).filter { x in (0..<h).contains { a[$0 * w + x] > 0 } }
            let rows = (0..<h).filter { y in (0..<w).contains { a[y * w + $0] > 0 } }
            if nearRight {
                XCTAssertTrue((w - 12 - 4...w - 12 + 2).contains(columns.max()! + 1), "right ink edge \(columns.max()!)")
                XCTAssertTrue((h - 12 - 12...h - 12).contains(rows.max()! + 1), "bottom ink edge \(rows.max()!)")
            } else {
                XCTAssertTrue((12...12 + 4).contains(columns.min()!), "left ink edge \(columns.min()!)")
                XCTAssertTrue((12...12 + 12).contains(rows.min()!), "top ink edge \(rows.min()!)")
            }
        }
    }

    /// Coverage outside the glyphs is transparent and the text node keeps an alpha channel; over a photo only the
    /// glyphs change it.
    func testOverAPhotoOnlyTheGlyphsChangeIt() throws {
        let photo = try TestImages.small()[0].image
        let recipe = try Recipe(json: Data(#"""
            {"version": 1, "inputs": ["main"], "nodes": [
              {"id": "t", "op": "text", "input": "main", "text": "x", "size": 10, "position": "northwest", "color": [1, 0, 0, 1]},
              {"id": "o", "op": "over", "inputs": ["t", "main"]}], "output": "o"}
            """#.utf8))
        let out = try Renderer(backend: .cpu).render(recipe, images: ["main": photo])
        let a = try out.samples(), b = try photo.samples()
        XCTAssertEqual(Array(a[(20 * 40 + 30) * 3..<(20 * 40 + 31) * 3]), Array(b[(20 * 40 + 30) * 3..<(20 * 40 + 31) * 3]))
        XCTAssertNotEqual(Array(a[0..<40 * 12 * 3]), Array(b[0..<40 * 12 * 3]), "the x is drawn top-left")
    }

    func testAMissingFontNamesWhatIsInstalled() throws {
        XCTAssertThrowsError(try render(["text": "x", "font": "No Such Typeface"])) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("No Such Typeface") && message.contains("not installed")
                          && message.contains("DejaVu Sans"), message)
        }
        XCTAssertTrue(TextSetter.families()?.contains("DejaVu Sans") ?? false)
    }

    func testCharactersNoFontCoversAreRefused() throws {
        // U+0378 is unassigned: no font has a glyph for it.
        XCTAssertThrowsError(try render(["text": "a\u{0378}b"])) { error in
            XCTAssertTrue("\(error)".contains("no installed font"), "\(error)")
        }
    }

    func testEmptyAndOversizedTextIsRefusedBeforeSetting() throws {
        XCTAssertThrowsError(try Recipe(json: Data(#"{"version":1,"steps":[{"op":"text","text":""}]}"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("steps[0]") && "\(error)".contains("text"), "\(error)")
        }
        for (text, size) in [(String(repeating: "W", count: 4000), 2000.0), (String(repeating: "W", count: 400), 2000)] {
            XCTAssertThrowsError(try render(["text": .string(text), "size": .number(size)])) { error in
                XCTAssertTrue("\(error)".contains("more than"), "\(error)")
            }
        }
    }
}
