/// Text that comes from a file (a profile's description, a codec's message quoting the file, a file name) made
/// safe to print: control characters — an escape sequence could recolour a terminal or move its cursor, a newline
/// could forge a line of output — and bidirectional overrides are written as `\x1B`, `\n`, `\u{202E}`.
package enum FileText {
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00...0x1F, 0x7F: out += "\\x" + hex(scalar.value, digits: 2)
            case 0x80...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                out += "\\u{" + hex(scalar.value, digits: 4) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
