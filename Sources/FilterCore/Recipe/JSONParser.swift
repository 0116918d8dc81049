import Foundation

/// A strict JSON reader for recipes, linear in the input whatever its nesting: one pass over the bytes, nesting
/// limited to `maxDepth`, and every error located by line and column and, where it concerns a value, by its JSON
/// path. Stricter than Foundation's decoder where recipes need it: trailing commas, duplicate keys, numbers that
/// overflow to infinity and invalid UTF-8 are errors.
enum JSONParser {
    static let maxDepth = 64

    struct Failure: Error, CustomStringConvertible {
        /// The JSON path of the value concerned ("" for the document or a syntax error).
        let path: String
        let message: String
        var description: String { path.isEmpty ? message : "\(path): \(message)" }
    }

    static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
            return try parser.document()
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var path: [String] = []

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func document() throws -> JSONValue {
            skipSpace()
            if index == bytes.count { throw syntax("the recipe is empty; expected a JSON object") }
            let value = try self.value(depth: 0)
            skipSpace()
            if index < bytes.count { throw syntax("unexpected \(shown(index)) after the end of the JSON value") }
            return value
        }

        // MARK: Values

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < maxDepth else { throw syntax("nesting deeper than \(maxDepth) levels") }
            guard index < bytes.count else { throw syntax("the recipe ends where a value was expected") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw syntax("expected a value, found \(shown(index))")
            }
        }

        mutating func object(depth: Int) throws -> JSONValue {
            index += 1
            var fields = [String: JSONValue]()
            skipSpace()
            if peek(UInt8(ascii: "}")) { index += 1; return .object(fields) }
            while true {
                skipSpace()
                guard peek(UInt8(ascii: "\"")) else {
                    if peek(UInt8(ascii: "}")) { throw syntax("a trailing comma before '}' (JSON allows none)") }
                    throw syntax("expected a key in double quotes, found \(shown(index))")
                }
                let keyStart = index
                let key = try string()
                skipSpace()
                guard peek(UInt8(ascii: ":")) else { throw syntax("expected ':' after the key \"\(key)\", found \(shown(index))") }
                index += 1
                skipSpace()
                path.append(path.isEmpty ? key : "." + key)
                if fields[key] != nil {
                    let (line, column) = location(keyStart)
                    throw Failure(path: joinedPath, message: "duplicate key \"\(key)\" (line \(line), column \(column)); give each key once")
                }
                fields[key] = try value(depth: depth + 1)
                path.removeLast()
                skipSpace()
                if peek(UInt8(ascii: ",")) { index += 1; continue }
                if peek(UInt8(ascii: "}")) { index += 1; return .object(fields) }
                throw syntax("expected ',' or '}' after the value of \"\(key)\", found \(shown(index))")
            }
        }

        mutating func array(depth: Int) throws -> JSONValue {
            index += 1
            var items = [JSONValue]()
            skipSpace()
            if peek(UInt8(ascii: "]")) { index += 1; return .array(items) }
            while true {
                skipSpace()
                if peek(UInt8(ascii: "]")) { throw syntax("a trailing comma before ']' (JSON allows none)") }
                path.append("[\(items.count)]")
                items.append(try value(depth: depth + 1))
                path.removeLast()
                skipSpace()
                if peek(UInt8(ascii: ",")) { index += 1; continue }
                if peek(UInt8(ascii: "]")) { index += 1; return .array(items) }
                throw syntax("expected ',' or ']' after a list item, found \(shown(index))")
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count,
                  memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0 else {
                throw syntax("expected a value, found \(shown(index))")
            }
            index += count
        }

        mutating func number() throws -> Double {
            let start = index
            if peek(UInt8(ascii: "-")) { index += 1 }
            guard let first = current, isDigit(first) else { throw syntax("expected a digit in a number, found \(shown(index))") }
            if first == UInt8(ascii: "0") { index += 1 } else { digits() }
            if peek(UInt8(ascii: ".")) {
                index += 1
                guard let c = current, isDigit(c) else { throw syntax("expected a digit after the decimal point, found \(shown(index))") }
                digits()
            }
            if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
                index += 1
                if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
                guard let c = current, isDigit(c) else { throw syntax("expected a digit in the exponent, found \(shown(index))") }
                digits()
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else {
                let (line, column) = location(start)
                throw Failure(path: joinedPath, message: "the number \(text.count > 24 ? text.prefix(24) + "…" : Substring(text)) is out of range (line \(line), column \(column)); numbers must be finite")
            }
            return value
        }

        mutating func string() throws -> String {
            index += 1
            var scalars = [UInt8]()
            var runStart = index
            while true {
                guard index < bytes.count else { throw syntax("a string is not closed (missing '\"')") }
                let c = bytes[index]
                if c == UInt8(ascii: "\"") {
                    scalars.append(contentsOf: bytes[runStart..<index])
                    index += 1
                    break
                }
                if c < 0x20 { throw syntax("a control character (code \(c)) inside a string; write it as an escape") }
                if c != UInt8(ascii: "\\") { index += 1; continue }
                scalars.append(contentsOf: bytes[runStart..<index])
                index += 1
                guard index < bytes.count else { throw syntax("a string is not closed (missing '\"')") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(8)
                case UInt8(ascii: "f"): scalars.append(12)
                case UInt8(ascii: "n"): scalars.append(10)
                case UInt8(ascii: "r"): scalars.append(13)
                case UInt8(ascii: "t"): scalars.append(9)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw syntax("an unpaired surrogate \\u escape in a string")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw syntax("an unpaired surrogate \\u escape in a string") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(code) {
                        throw syntax("an unpaired surrogate \\u escape in a string")
                    }
                    scalars.append(contentsOf: Array(String(Character(Unicode.Scalar(code)!)).utf8))
                default:
                    index -= 1
                    throw syntax("an unknown escape '\\\(shown(index, quoted: false))' in a string")
                }
                runStart = index
            }
            guard let text = String(validating: scalars, as: UTF8.self) else {
                throw syntax("a string is not valid UTF-8")
            }
            return text
        }

        mutating func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count else { throw syntax("a \\u escape needs four hex digits") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[index]
                let digit: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
                default: throw syntax("a \\u escape needs four hex digits, found \(shown(index))")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        // MARK: Helpers

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }
        func peek(_ c: UInt8) -> Bool { index < bytes.count && bytes[index] == c }
        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        mutating func digits() { while let c = current, isDigit(c) { index += 1 } }

        mutating func skipSpace() {
            while let c = current, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { index += 1 }
        }

        var joinedPath: String { path.joined() }

        /// 1-based line and column (in bytes) of `offset`.
        func location(_ offset: Int) -> (Int, Int) {
            var line = 1, lineStart = 0
            for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            return (line, offset - lineStart + 1)
        }

        func shown(_ offset: Int, quoted: Bool = true) -> String {
            guard offset < bytes.count else { return "the end of the file" }
            let c = bytes[offset]
            let text = c >= 0x20 && c < 0x7F ? String(UnicodeScalar(c)) : String(format: "byte 0x%02X", c)
            return quoted && c >= 0x20 && c < 0x7F ? "'\(text)'" : text
        }

        func syntax(_ message: String) -> Failure {
            let (line, column) = location(index)
            return Failure(path: "", message: "not valid JSON at line \(line), column \(column): \(message)")
        }
    }
}
