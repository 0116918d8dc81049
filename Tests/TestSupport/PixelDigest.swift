import CPNG
import FilterCore

/// Helpers that look at stored pixels independently of the code under test.
package enum PixelDigest {
    /// The buffer expanded to RGBA with 16-bit big-endian samples (grey copied to RGB, missing alpha opaque,
    /// 8-bit values scaled by 257), the layout scripts/pngsuite_digests.py hashes.
    package static func rgba16BigEndian(_ buffer: PixelBuffer) throws -> [UInt8] {
        let base = try buffer.hostBytes()
        let channels = buffer.format.channels
        var out = [UInt8]()
        out.reserveCapacity(buffer.width * buffer.height * 8)
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                var s = [Int](repeating: 0, count: channels)
                for c in 0..<channels { s[c] = sample(base, buffer, y, x * channels + c) }
                let rgba: [Int]
                switch channels {
                case 1: rgba = [s[0], s[0], s[0], 65535]
                case 2: rgba = [s[0], s[0], s[0], s[1]]
                case 3: rgba = s + [65535]
                default: rgba = s
                }
                for v in rgba { out.append(UInt8(v >> 8)); out.append(UInt8(v & 0xFF)) }
            }
        }
        return out
    }

    /// Sample `index` of row `y`, scaled to 16 bits.
    package static func sample(_ base: UnsafeRawPointer, _ buffer: PixelBuffer, _ y: Int, _ index: Int) -> Int {
        let row = base + y * buffer.rowStride
        if buffer.format.bytesPerSample == 1 { return Int(row.load(fromByteOffset: index, as: UInt8.self)) * 257 }
        return Int(row.load(fromByteOffset: index * 2, as: UInt16.self))
    }

    package static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CPNG.crc32(0, $0.baseAddress, UInt32($0.count))) }
    }

    /// Every stored byte of the rows (without row padding).
    package static func packedBytes(_ buffer: PixelBuffer) throws -> [UInt8] {
        let base = try buffer.hostBytes()
        let rowBytes = buffer.width * buffer.format.bytesPerPixel
        var out = [UInt8]()
        for y in 0..<buffer.height {
            out += UnsafeRawBufferPointer(start: base + y * buffer.rowStride, count: rowBytes)
        }
        return out
    }
}
