import CPNG
import Foundation

/// Hand-made PNG chunks, for files no encoder writes (floods of ancillary chunks, damaged data).
package enum PNGChunks {
    /// A chunk: length, type, data, CRC of type and data.
    package static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(PixelDigest.crc32(body))
    }

    /// `bytes` as a zlib stream.
    package static func zlib(_ bytes: [UInt8]) throws -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        guard compress2(&output, &length, bytes, uLong(bytes.count), 9) == Z_OK else { throw NSError(domain: "zlib", code: 1) }
        return Array(output.prefix(Int(length)))
    }

    /// An iCCP chunk holding `profile`.
    package static func iCCP(_ profile: [UInt8]) throws -> [UInt8] {
        chunk("iCCP", Array("ICC profile".utf8) + [0, 0] + (try zlib(profile)))
    }

    /// A zlib stream of `count` zero bytes.
    package static func zlibZeros(count: Int) throws -> [UInt8] {
        let input = [UInt8](repeating: 0, count: count)
        var length = compressBound(uLong(count))
        var output = [UInt8](repeating: 0, count: Int(length))
        guard compress2(&output, &length, input, uLong(count), 9) == Z_OK else {
            throw NSError(domain: "zlib", code: 1)
        }
        return Array(output.prefix(Int(length)))
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
}
