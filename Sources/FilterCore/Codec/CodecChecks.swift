import Foundation

/// The row bookkeeping every codec shares: a request past the last row, a file finished short, and decoders that
/// hold a whole picture (libwebp, libtiff) serving it row by row.
extension CodecError {
    /// Refuses `count` more rows after `done` of an image `height` rows tall.
    package static func checkRows(_ path: String, done: Int, count: Int, height: Int) throws {
        guard count >= 0, done + count <= height else {
            throw CodecError(kind: .invalidRequest, path: path, message: "more rows than the image height \(height)")
        }
    }

    /// Refuses to finish a file before its last row.
    package static func checkComplete(_ path: String, written: Int, height: Int) throws {
        guard written == height else {
            throw CodecError(kind: .invalidRequest, path: path, message: "only \(written) of \(height) rows written")
        }
    }
}

/// A decoded picture held whole, packed rows of `rowBytes`.
package enum WholePicture {
    /// The file's bytes, read whole (for libraries that decode from memory: libwebp, libheif), `fd` closed
    /// after; more than `limit` bytes is refused before reading.
    package static func readFile(_ fd: Int32, name: String, limit: Int) throws -> [UInt8] {
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw CodecError(kind: .io, path: name, message: String(cString: strerror(errno))) }
        guard Int(info.st_size) <= limit else {
            throw CodecError(kind: .tooLarge, path: name, message: "the file is \(info.st_size) bytes, over the memory limit "
                             + "(\(SettingName.maxMemory)) for an image decoded whole")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw CodecError(kind: .io, path: name, message: n == 0 ? "the file shrank while being read" : String(cString: strerror(errno)))
            }
            done += n
        }
        return bytes
    }

    /// Writes all of `bytes` to `fd` (an encoded file made in memory).
    package static func write(_ bytes: [UInt8], to fd: Int32, path: String) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw CodecError.writing(path, errno: errno, library: "") }
            done += n
        }
    }

    /// Copies rows `first ..< first + count` of `pixels` to `destination`, `stride` bytes apart.
    package static func copyRows(_ pixels: [UInt8], rowBytes: Int, first: Int, count: Int,
                                 into destination: UnsafeMutableRawPointer, stride: Int) {
        pixels.withUnsafeBytes { all in
            for i in 0..<count {
                (destination + i * stride).copyMemory(from: all.baseAddress! + (first + i) * rowBytes, byteCount: rowBytes)
            }
        }
    }
}

extension DecodeLimits {
    /// Refuses, before decoding, a picture a codec must hold whole: empty, over `maxPixels`, or needing more than
    /// `maxMemory` (`heldBytes`: the decoded pixels and whatever else the codec keeps, such as the file itself).
    package func checkWhole(_ path: String, format: String, width: Int, height: Int, heldBytes: (Int) -> Double) throws {
        guard width > 0, height > 0 else {
            throw CodecError(kind: .corrupt, path: path, message: "corrupt \(format): the image is \(width)×\(height)")
        }
        let pixels = width.multipliedReportingOverflow(by: height)
        if pixels.overflow || pixels.partialValue > maxPixels {
            throw CodecError(kind: .tooLarge, path: path, message: "image is \(width)×\(height) pixels, over the limit of "
                             + "\(maxPixels) (\(SettingName.maxPixels))")
        }
        let held = heldBytes(pixels.partialValue)
        if held > Double(maxMemory) {
            throw CodecError(kind: .tooLarge, path: path, message: String(
                format: "decoding this %d×%d %@ needs %.2f GiB held whole, over the memory limit of %.2f GiB (\(SettingName.maxMemory))",
                width, height, format, held / 1_073_741_824, Double(maxMemory) / 1_073_741_824))
        }
    }
}
