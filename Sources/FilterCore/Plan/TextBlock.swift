import CText
import Foundation

/// A block of set text: its coverage (0…255 a pixel, from Pango) placed with its top-left corner at
/// (`x`, `y`) on the generator's canvas, drawn in `color`. Outside the block the canvas is transparent.
package struct TextBlock: Equatable, Sendable {
    package let width: Int, height: Int
    package let coverage: [UInt8]
    package let x: Int, y: Int
    package let color: RGBA

    /// Coverage of canvas pixel (column, row): 0 outside the block.
    @inline(__always)
    package func coverage(_ column: Int, _ row: Int) -> UInt8 {
        let bx = column - x, by = row - y
        guard bx >= 0, by >= 0, bx < width, by < height else { return 0 }
        return coverage[by * width + bx]
    }
}

/// What `text` asks Pango for.
package struct TextStyle: Hashable, Sendable {
    package var text: String
    package var family: String
    /// The em size in pixels.
    package var size: Double
    /// CSS/OpenType weight, 100–900.
    package var weight: Int
    package var italic: Bool
    package var alignment: Alignment
    /// Pixels; 0: no wrapping.
    package var wrapWidth: Int
    /// A factor of the font's line height; 0: the font's own.
    package var lineSpacing: Double

    package enum Alignment: Int, Sendable { case left, centre, right }

    /// The largest block set: beyond it a recipe is refused before anything is allocated.
    package static let maxPixels = 1 << 24

    package init(text: String, family: String, size: Double, weight: Int, italic: Bool, alignment: Alignment,
                 wrapWidth: Int, lineSpacing: Double) {
        (self.text, self.family, self.size, self.weight, self.italic) = (text, family, size, weight, italic)
        (self.alignment, self.wrapWidth, self.lineSpacing) = (alignment, wrapWidth, lineSpacing)
    }
}

/// Text as Pango sets it: `width`×`height` coverage bytes starting at `offset` (≤ 0) from the origin of the layout
/// box `box` (the widest line or wrap width × the lines; what placement uses).
package struct SetText: Sendable {
    package let width: Int, height: Int
    package let coverage: [UInt8]
    package let box: (width: Int, height: Int)
    package let offset: (x: Int, y: Int)
}

/// Sets text through Pango (HarfBuzz shaping, fontconfig fonts, Unicode bidi) and keeps the last few blocks: a
/// batch sets its watermark once, not once an image.
package enum TextSetter {
    private static let cache = BlockCache()

    /// The coverage of `style` set as one block (the layout's line boxes grown to hold any ink outside them).
    package static func set(_ style: TextStyle) throws -> SetText {
        if let hit = cache[style] { return hit }
        var cStyle = fr_text_style()
        var mask = fr_text_mask()
        var message = [CChar](repeating: 0, count: 2048)
        let status = style.text.withCString { text in
            style.family.withCString { family in
                cStyle.text = text
                cStyle.family = family
                cStyle.size = style.size
                cStyle.weight = Int32(style.weight)
                cStyle.italic = style.italic ? 1 : 0
                cStyle.align = Int32(style.alignment.rawValue)
                cStyle.wrap_width = Int32(style.wrapWidth)
                cStyle.line_spacing = style.lineSpacing
                cStyle.max_pixels = TextStyle.maxPixels
                return fr_text_render(&cStyle, &mask, &message, message.count)
            }
        }
        defer { fr_text_free(&mask) }
        guard status == 0, let pixels = mask.coverage else {
            throw PlanError(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let block = SetText(width: Int(mask.width), height: Int(mask.height),
                            coverage: Array(UnsafeBufferPointer(start: pixels, count: Int(mask.width) * Int(mask.height))),
                            box: (Int(mask.box_width), Int(mask.box_height)), offset: (Int(mask.left), Int(mask.top)))
        cache[style] = block
        return block
    }

    /// The installed font families, sorted; nil when Pango cannot be loaded.
    package static func families() -> [String]? {
        var out = [CChar](repeating: 0, count: 1 << 16)
        guard fr_text_families(&out, out.count) != 0 else { return nil }
        let joined = String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return joined.isEmpty ? [] : joined.components(separatedBy: ", ")
    }

    /// The last blocks set, at most eight, by style.
    private final class BlockCache: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(TextStyle, SetText)] = []

        subscript(style: TextStyle) -> SetText? {
            get { lock.withLock { entries.first { $0.0 == style }?.1 } }
            set {
                guard let newValue else { return }
                lock.withLock {
                    entries.removeAll { $0.0 == style }
                    entries.append((style, newValue))
                    if entries.count > 8 { entries.removeFirst() }
                }
            }
        }
    }
}
