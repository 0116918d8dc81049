import FilterCore
import Foundation
import PNGCodec

/// `text` from an independent renderer: pango-view (Debian's pango1.0-tools) sets the same string with the same
/// font, size and options into a PNG whose alpha is the coverage; the block is placed and coloured from the
/// catalogue's formula here.
package enum TextReference {
    /// pango-view's font-description weight words for CSS weights.
    static let weightWords = [100: "Thin", 200: "Ultra-Light", 300: "Light", 400: "", 500: "Medium", 600: "Semi-Bold",
                              700: "Bold", 800: "Ultra-Bold", 900: "Heavy"]
    static let weights = ["thin": 100, "extralight": 200, "light": 300, "normal": 400, "medium": 500, "semibold": 600,
                          "bold": 700, "extrabold": 800, "black": 900]

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [[String]: (width: Int, height: Int, values: [Double])] = [:]

    /// The coverage pango-view gives (values 0…1, row by row) with `margin` pixels around the layout box, and the
    /// image's size.
    static func run(_ arguments: [String], margin: Int) -> (width: Int, height: Int, values: [Double]) {
        let key = arguments + ["--margin=\(margin)"]
        if let hit = lock.withLock({ cache[key] }) { return hit }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pango-view-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pango-view")
        process.arguments = key + ["--output=" + output.path]
        do {
            try process.run()
            process.waitUntilExit()
            let image = try PNGDecoder.decode(path: output.path)
            let samples = try image.samples(), n = image.format.channels
            let values = (0..<image.width * image.height).map { Double(samples[$0 * n + n - 1]) / (image.format.depth == 16 ? 65535 : 255) }
            lock.withLock { cache[key] = (image.width, image.height, values) }
            return (image.width, image.height, values)
        } catch {
            fatalError("the text reference needs pango-view (Debian: pango1.0-tools): \(error)")
        }
    }

    /// pango-view's layout box (its image without margins: from the origin to the widest line or wrap width, and
    /// to the last line) and its coverage with `margin` pixels around it, ink outside the box included.
    package static func coverage(text: String, font: String, pixels: Double, weight: String = "normal",
                                 italic: Bool = false, align: String = "left", wrapWidth: Int = 0,
                                 lineSpacing: Double = 0, margin: Int)
        -> (box: (width: Int, height: Int), width: Int, height: Int, values: [Double]) {
        let words = [font, weightWords[weights[weight] ?? 400] ?? "", italic ? "Italic" : "", "\(pixels)px"]
        // Unhinted metrics: Debian's pango-view 1.50 gives them for --hint-metrics=on (its flag acts inverted:
        // DejaVu Sans at 30 px sets a 35-pixel line, ⌈27.8 + 7.1⌉, with "on" and 36, 28 + 8, with "off").
        var arguments = ["-q", "--pixels", "--hinting=none", "--antialias=gray", "--hint-metrics=on",
                         "--subpixel-positions", "--background=transparent", "--foreground=black",
                         "--font=" + words.filter { !$0.isEmpty }.joined(separator: " "),
                         "--align=" + (align == "centre" ? "center" : align), "--text=" + text]
        if wrapWidth > 0 { arguments += ["--width=\(wrapWidth)", "--wrap=word-char"] }
        if lineSpacing > 0 { arguments += ["--line-spacing=\(lineSpacing)"] }
        let box = run(arguments, margin: 0), wide = run(arguments, margin: margin)
        return ((box.width, box.height), wide.width, wide.height, wide.values)
    }

    /// The whole `text` filter: the block placed on a `width`×`height` canvas and coloured.
    static func render(_ p: Params, width: Int, height: Int, space: WorkingSpace) -> ReferenceImage {
        let em = p.number("relativeSize") > 0 ? p.number("relativeSize") * Double(height) : p.number("size") * p.number("dpi") / 72
        // Room for ink past the box: an em each way.
        let room = Int(em.rounded(.up)) + 2
        let block = coverage(text: p.string("text"), font: p.string("font"), pixels: em, weight: p.string("weight"),
                             italic: p.bool("italic"), align: p.string("align"), wrapWidth: p.int("wrapWidth"),
                             lineSpacing: p.number("lineSpacing"), margin: room)
        let position = p.string("position")
        let margin = Int((p.number("margin") * Double(min(width, height))).rounded())
        func origin(_ excess: Int, start: Bool, end: Bool) -> Int {
            if excess == 0 { return 0 }
            return start ? margin : end ? excess - margin : excess / 2
        }
        let x = origin(width - block.box.width, start: position.hasSuffix("west"), end: position.hasSuffix("east")) - room
        let y = origin(height - block.box.height, start: position.hasPrefix("north"), end: position.hasPrefix("south")) - room
        let c = p.color("color")
        let f: (Double) -> Double = space == .linear ? SRGB.toLinear : { $0 }
        let colour = SIMD4(f(c.r) * c.a, f(c.g) * c.a, f(c.b) * c.a, c.a)
        var image = ReferenceImage(width: width, height: height)
        for row in 0..<height {
            for column in 0..<width {
                let bx = column - x, by = row - y
                guard bx >= 0, by >= 0, bx < block.width, by < block.height else { continue }
                image[column, row] = colour * block.values[by * block.width + bx]
            }
        }
        return image
    }
}
