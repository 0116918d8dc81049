import CGIF
import FilterCore

/// An image's LZW code stream (GIF89a, appendix F) decoded by us, strictly: giflib's own decoder turns a code past
/// the end of its string table into whatever its table holds there, so a damaged file decodes to wrong pixels with
/// no error (Pillow calls it "broken data stream"). Here such a code, a first code that is not a literal, and data
/// that ends before the image's last pixel are errors. The coded bytes come from giflib a sub-block at a time
/// (`DGifGetCode`, `DGifGetCodeNext`), so an image is decoded a row at a time whatever its declared size, and the
/// rest of its sub-blocks are read past when it is done, as the next record needs.
struct GIFCodeStream {
    private let gif: UnsafeMutablePointer<GifFileType>
    private let path: String
    private let which: String
    private let minimumCodeSize: Int
    private let clear: Int
    private var codeSize: Int
    private var nextCode: Int
    /// The sub-block being read (its first byte is its length) and the next byte in it.
    private var block: UnsafeMutablePointer<GifByteType>?
    private var blockAt = 1
    private var blocksEnded = false
    private var bits: UInt32 = 0
    private var bitCount = 0
    /// The string table: each code's prefix code, last byte, first byte and length.
    private var prefix = [Int16](repeating: -1, count: 4096)
    private var suffix = [UInt8](repeating: 0, count: 4096)
    private var first = [UInt8](repeating: 0, count: 4096)
    private var length = [Int16](repeating: 0, count: 4096)
    private var previous = -1
    /// Bytes of the last string not yet given out (a string can run past the end of a row).
    private var pending = [UInt8](repeating: 0, count: 4096)
    private var pendingStart = 0, pendingEnd = 0
    private var ended = false

    /// The code stream of the image whose descriptor `gif` has just read.
    init(_ gif: UnsafeMutablePointer<GifFileType>, path: String, which: String) throws {
        self.gif = gif
        self.path = path
        self.which = which
        var size: Int32 = 0
        var firstBlock: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCode(gif, &size, &firstBlock) == GIF_OK else {
            throw GIFDecoder.failure(gif.pointee.Error, path: path, doing: "decode \(which)")
        }
        guard (2...8).contains(size) || size == 1 else {
            throw CodecError(kind: .corrupt, path: path, message: "corrupt GIF: \(which) has an LZW code size of \(size)")
        }
        // A code size of 1 (two-colour images written by some encoders) codes as 2 does.
        minimumCodeSize = max(2, Int(size))
        clear = 1 << minimumCodeSize
        codeSize = minimumCodeSize + 1
        nextCode = clear + 2
        block = firstBlock
        blocksEnded = firstBlock == nil
        for code in 0..<clear {
            suffix[code] = UInt8(truncatingIfNeeded: code)
            first[code] = UInt8(truncatingIfNeeded: code)
            length[code] = 1
        }
    }

    /// Fills `count` indices at `output`.
    mutating func read(into output: UnsafeMutablePointer<UInt8>, count: Int) throws {
        var done = 0
        while done < count {
            if pendingStart < pendingEnd {
                let n = min(count - done, pendingEnd - pendingStart)
                pending.withUnsafeBufferPointer { output.advanced(by: done).update(from: $0.baseAddress! + pendingStart, count: n) }
                pendingStart += n
                done += n
                continue
            }
            try decodeString()
        }
    }

    /// Reads past the image's remaining sub-blocks (codes after its last pixel, then the terminator).
    mutating func finish() throws {
        while !blocksEnded {
            try nextBlock()
        }
    }

    /// Decodes the next code's string into `pending`.
    private mutating func decodeString() throws {
        while true {
            guard !ended, let code = try nextCodeValue() else {
                throw CodecError(kind: .corrupt, path: path, message: "truncated: the image data of \(which) ends before its last pixel")
            }
            if code == clear {
                codeSize = minimumCodeSize + 1
                nextCode = clear + 2
                previous = -1
                continue
            }
            if code == clear + 1 {
                ended = true
                continue
            }
            if previous < 0 {
                guard code < clear else { throw broken("its first code is not a colour") }
                emit(code)
                previous = code
                return
            }
            if code < nextCode {
                add(prefix: previous, last: first[code])
                emit(code)
            } else if code == nextCode, nextCode < 4096 {
                add(prefix: previous, last: first[previous])
                emit(code)
            } else {
                throw broken("a code (\(code)) past the end of its string table (\(nextCode))")
            }
            previous = code
            return
        }
    }

    private func broken(_ what: String) -> CodecError {
        CodecError(kind: .corrupt, path: path, message: "corrupt GIF: the LZW data of \(which) is broken: \(what)")
    }

    private mutating func add(prefix code: Int, last: UInt8) {
        guard nextCode < 4096 else { return }  // a full table is used as it is until the next clear code
        prefix[nextCode] = Int16(code)
        suffix[nextCode] = last
        first[nextCode] = first[code]
        length[nextCode] = length[code] + 1
        nextCode += 1
        if nextCode == 1 << codeSize && codeSize < 12 { codeSize += 1 }
    }

    /// Writes `code`'s string into `pending`, last byte first along its prefixes.
    private mutating func emit(_ code: Int) {
        let n = Int(length[code])
        var c = code
        for i in stride(from: n - 1, through: 0, by: -1) {
            pending[i] = suffix[c]
            c = Int(prefix[c])
        }
        pendingStart = 0
        pendingEnd = n
    }

    /// The next code, least significant bits first; nil when the sub-blocks end.
    private mutating func nextCodeValue() throws -> Int? {
        while bitCount < codeSize {
            guard let byte = try nextByte() else { return nil }
            bits |= UInt32(byte) << UInt32(bitCount)
            bitCount += 8
        }
        let code = Int(bits & ((1 << UInt32(codeSize)) - 1))
        bits >>= UInt32(codeSize)
        bitCount -= codeSize
        return code
    }

    private mutating func nextByte() throws -> UInt8? {
        while !blocksEnded {
            if let block, blockAt <= Int(block[0]) {
                blockAt += 1
                return block[blockAt - 1]
            }
            try nextBlock()
        }
        return nil
    }

    private mutating func nextBlock() throws {
        var next: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCodeNext(gif, &next) == GIF_OK else {
            throw GIFDecoder.failure(gif.pointee.Error, path: path, doing: "decode \(which)")
        }
        block = next
        blockAt = 1
        blocksEnded = next == nil
    }
}
