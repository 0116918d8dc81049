import NIOCore

/// Refuses the multipart bodies that crash MultipartKit 4.7.1's parser instead of failing it: a part header name
/// holding a byte over 0x7F indexes past its 128-entry table of name characters (found by schemathesis against
/// `POST /render`; one request would stop the whole server). Every block of part headers — after each occurrence of
/// the boundary, up to its blank line — is checked: the text before a line's colon (or the whole line without one)
/// must be ASCII, as RFC 7578 part headers are.
enum MultipartGuard {
    static func isSafe(_ body: ByteBuffer, boundary: String) -> Bool {
        let delimiter = Array(("--" + boundary).utf8)
        guard delimiter.count > 2 else { return false }
        // Read in place: an upload may be tens of megabytes.
        return body.withUnsafeReadableBytes { safe($0.assumingMemoryBound(to: UInt8.self), delimiter) }
    }

    private static func safe(_ bytes: UnsafeBufferPointer<UInt8>, _ delimiter: [UInt8]) -> Bool {
        var start = 0
        while let found = find(delimiter, in: bytes, from: start) {
            var i = found + delimiter.count
            var inName = true
            // One block of header lines, ending at an empty line (CRLF CRLF) or the end of the body.
            while i < bytes.count {
                let byte = bytes[i]
                if byte == 0x0D, i + 3 < bytes.count, bytes[i + 1] == 0x0A, bytes[i + 2] == 0x0D, bytes[i + 3] == 0x0A { break }
                if byte == 0x0A { inName = true } else if byte == 0x3A { inName = false } else if inName && byte > 0x7F { return false }
                i += 1
            }
            start = found + 1
        }
        return true
    }

    static func find(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        var i = start
        while i <= haystack.count - needle.count {
            if haystack[i] == needle[0] && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
