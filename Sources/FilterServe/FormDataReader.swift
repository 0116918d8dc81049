import Foundation

/// A `multipart/form-data` body (RFC 7578) read as it arrives, in time linear in its bytes: each search for the
/// boundary resumes where the last one stopped, so neither many parts nor a body fed a byte at a time costs more
/// than one pass. Parts are known as soon as they end, so a caller can check a signature that precedes the image
/// before reading the image at all. A form holds at most `maxParts` parts of distinct names, each with a header
/// block of at most 8 KiB whose names are ASCII.
struct FormDataReader {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static let maxParts = 16
    static let maxHeaderBytes = 8192

    private enum State {
        case preamble, afterDelimiter, headers
        case body(name: String, start: Int)
        case done
    }

    /// The body so far, behind a CRLF of ours so the first delimiter reads as every other does.
    private var buffer: [UInt8] = [0x0D, 0x0A]
    private let delimiter: [UInt8]
    private var state = State.preamble
    /// Where the next search starts.
    private var cursor = 0
    private var parts: [String: Range<Int>] = [:]
    /// The part being received, by name.
    private(set) var receiving: String?
    /// Names in the order their parts began.
    private(set) var order: [String] = []

    /// The boundary parameter's value (RFC 2046: 1–70 characters).
    init(boundary: String) throws {
        guard (1...70).contains(boundary.utf8.count) else { throw Malformed("the boundary must be 1 to 70 characters") }
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// Whether the closing delimiter was read.
    var isFinished: Bool { if case .done = state { return true } else { return false } }
    /// Bytes read so far.
    var byteCount: Int { buffer.count - 2 }

    /// Whether the part `name` has been read whole.
    func has(_ name: String) -> Bool { parts[name] != nil }

    /// The part `name`'s bytes.
    func field(_ name: String) -> Data? { parts[name].map { Data(buffer[$0]) } }

    /// The part `name` as UTF-8 text.
    func text(_ name: String) -> String? { parts[name].map { String(decoding: buffer[$0], as: UTF8.self) } }

    /// Reads more of the body.
    mutating func feed<Bytes: Collection>(_ bytes: Bytes) throws where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        try advance()
    }

    /// Checks that the body ended with the closing delimiter.
    func finish() throws {
        guard isFinished else { throw Malformed("the form ends before its closing boundary") }
    }

    private mutating func advance() throws {
        while true {
            switch state {
            case .done:
                return
            case .preamble:
                guard let found = find(delimiter, from: cursor) else { return hold(from: cursor) }
                cursor = found + delimiter.count
                state = .afterDelimiter
            case .afterDelimiter:
                guard buffer.count - cursor >= 2 else { return }
                let next = (buffer[cursor], buffer[cursor + 1])
                if next == (0x2D, 0x2D) {
                    state = .done
                    return
                }
                guard next == (0x0D, 0x0A) else { throw Malformed("a boundary is followed by neither CRLF nor --") }
                cursor += 2
                state = .headers
            case .headers:
                // From the CRLF that ended the delimiter's line, so a part with no header lines is seen too.
                guard let end = find([0x0D, 0x0A, 0x0D, 0x0A], from: cursor - 2) else {
                    guard buffer.count - cursor <= Self.maxHeaderBytes else { throw Malformed("a part's headers are over 8 KiB") }
                    return
                }
                guard end - cursor <= Self.maxHeaderBytes else { throw Malformed("a part's headers are over 8 KiB") }
                let name = try Self.partName(buffer[cursor..<max(cursor, end)])
                guard parts[name] == nil, !order.contains(name) else { throw Malformed("the form has two parts named \"\(name)\"") }
                guard order.count < Self.maxParts else { throw Malformed("the form has more than \(Self.maxParts) parts") }
                order.append(name)
                receiving = name
                cursor = end + 4
                state = .body(name: name, start: cursor)
            case .body(let name, let start):
                guard let found = find(delimiter, from: cursor) else { return hold(from: start) }
                parts[name] = start..<found
                receiving = nil
                cursor = found + delimiter.count
                state = .afterDelimiter
            }
        }
    }

    /// After a failed search: the next one starts where a delimiter could still begin.
    private mutating func hold(from start: Int) {
        cursor = max(start, buffer.count - delimiter.count + 1)
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard start >= 0, buffer.count - start >= needle.count else { return nil }
        // memchr finds each candidate for the first byte; the needle (at most 74 bytes) is compared there.
        return buffer.withUnsafeBytes { haystack -> Int? in
            let base = haystack.baseAddress!, last = haystack.count - needle.count
            var at = start
            while at <= last, let hit = memchr(base + at, Int32(needle[0]), last - at + 1) {
                let i = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + i, needle, needle.count) == 0 { return i }
                at = i + 1
            }
            return nil
        }
    }

    /// The `name` parameter of a part's Content-Disposition (`form-data; name="recipe"`); header names must be ASCII.
    static func partName(_ block: ArraySlice<UInt8>) throws -> String {
        var name: String?
        for line in block.split(separator: 0x0A) {
            let text = String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { continue }
            let field = text[..<colon]
            guard field.utf8.allSatisfy({ $0 < 0x80 }) else { throw Malformed("a part header name holds a byte that is not ASCII") }
            guard field.trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
            for parameter in text[text.index(after: colon)...].split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0].lowercased() == "name" else { continue }
                name = pair[1].count >= 2 && pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") ? String(pair[1].dropFirst().dropLast()) : pair[1]
            }
        }
        guard let name, !name.isEmpty else { throw Malformed("a part has no Content-Disposition name") }
        return name
    }
}
