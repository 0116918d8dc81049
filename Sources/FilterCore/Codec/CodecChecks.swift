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
    /// Writes a whole coded file to `output` and publishes it (`OutputFile.publish()`); on any failure the output is
    /// abandoned.
    package static func publish(_ bytes: [UInt8], to output: OutputFile) throws {
        do {
            let fd = try output.writerDescriptor()
            defer { close(fd) }
            try write(bytes, to: fd, path: output.path)
        } catch {
            output.abandon()
            throw error
        }
        try output.publish()
    }

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

extension CodecError {
    /// The note an animation's first frame carries, so a render that reads only it never says nothing.
    package static func firstFrameNote(_ path: String, frames: Int?) -> String {
        "note: \(FileText.escaped(path)) is an animation" + (frames.map { " of \($0) frames" } ?? "")
            + "; its first frame is read (--frames all renders every frame into an animated WebP, GIF, AVIF or JPEG XL)"
    }
}

/// A picture a codec decodes whole (libwebp, libheif, giflib, libtiff), served row by row from the first request
/// and released after its last row.
package struct HeldPicture {
    private var pixels: [UInt8]?
    package private(set) var nextRow = 0
    package init() {}

    /// Whether the picture has been decoded (and not yet released).
    package var isDecoded: Bool { pixels != nil }

    /// Copies the next `count` rows (`rowBytes` each) to `destination`, `stride` bytes apart, decoding the picture
    /// on the first call; true when the last row went.
    package mutating func read(_ path: String, height: Int, rowBytes: Int, into destination: UnsafeMutableRawPointer,
                               stride: Int, count: Int, decode: () throws -> [UInt8]) throws -> Bool {
        try CodecError.checkRows(path, done: nextRow, count: count, height: height)
        let picture = try pixels ?? decode()
        pixels = picture
        WholePicture.copyRows(picture, rowBytes: rowBytes, first: nextRow, count: count, into: destination, stride: stride)
        nextRow += count
        guard nextRow == height else { return false }
        pixels = nil
        return true
    }
}

/// Rows gathered for an encoder that codes a whole picture (libwebp, libheif): packed RGB or RGBA samples of 1 or
/// 2 bytes, grey rows spread to RGB on the way in.
package struct GatheredPicture {
    package private(set) var pixels: [UInt8]
    package private(set) var rowsWritten = 0
    /// Whether the file was written and published.
    package private(set) var isPublished = false
    let width: Int, height: Int, channels: Int, sampleBytes: Int

    package init(width: Int, height: Int, channels: Int, sampleBytes: Int) {
        self.width = width
        self.height = height
        self.channels = channels
        self.sampleBytes = sampleBytes
        pixels = [UInt8](repeating: 0, count: width * height * channels * sampleBytes)
    }

    /// Appends `count` rows of `format` (the same sample size; 1–4 channels) from `source`, `stride` bytes apart;
    /// refused once the picture is encoded or abandoned, or past its last row.
    package mutating func append(_ source: UnsafeRawPointer, stride: Int, count: Int, format: PixelFormat, path: String) throws {
        guard !pixels.isEmpty else { throw CodecError(kind: .invalidRequest, path: path, message: "encoder is closed") }
        try CodecError.checkRows(path, done: rowsWritten, count: count, height: height)
        let inChannels = format.channels, bytes = sampleBytes, channels = channels, width = width
        let rowBytes = width * channels * bytes, first = rowsWritten
        pixels.withUnsafeMutableBytes { all in
            for i in 0..<count {
                let row = source + i * stride
                let out = all.baseAddress! + (first + i) * rowBytes
                if inChannels == channels {
                    out.copyMemory(from: row, byteCount: rowBytes)
                    continue
                }
                // Grey (and grey + alpha) spread to RGB, sample by sample.
                for x in 0..<width {
                    let grey = row + x * inChannels * bytes, pixel = out + x * channels * bytes
                    for c in 0..<3 { (pixel + c * bytes).copyMemory(from: grey, byteCount: bytes) }
                    if channels == 4 { (pixel + 3 * bytes).copyMemory(from: grey + bytes, byteCount: bytes) }
                }
            }
        }
        rowsWritten += count
    }

    /// Frees the rows (after encoding, or when abandoned).
    package mutating func release() { pixels = [] }

    /// Encodes the complete picture with `encode`, writes it to `output` and publishes it; on any failure the
    /// output is abandoned. The rows are freed either way.
    package mutating func publish(to output: OutputFile, encode: (GatheredPicture) throws -> [UInt8]) throws {
        guard !pixels.isEmpty else { throw CodecError(kind: .invalidRequest, path: output.path, message: "encoder is closed") }
        try CodecError.checkComplete(output.path, written: rowsWritten, height: height)
        defer { release() }
        let file: [UInt8]
        do { file = try encode(self) } catch {
            output.abandon()
            throw error
        }
        try WholePicture.publish(file, to: output)
        isPublished = true
    }
}

/// An encoder that gathers a whole picture and codes it at `finish()` (libwebp, libheif, libjxl): rows, closing
/// and publishing are the same for each; only the coding differs. Its `deinit` abandons the output unless
/// `gathered.isPublished`.
package protocol WholePictureEncoder: ImageEncoder {
    var output: OutputFile { get }
    var format: PixelFormat { get }
    var gathered: GatheredPicture { get set }
    /// The gathered picture coded as the file's bytes.
    func encode(_ picture: GatheredPicture) throws -> [UInt8]
}

extension WholePictureEncoder {
    package var path: String { output.path }
    package var rowsWritten: Int { gathered.rowsWritten }

    package func abandon() {
        gathered.release()
        output.abandon()
    }

    package func writeRows(_ source: UnsafeRawPointer, stride: Int, count: Int) throws {
        try gathered.append(source, stride: stride, count: count, format: format, path: path)
    }

    /// Encodes, writes and publishes the file (see `OutputFile.publish()`).
    package func finish() throws {
        try gathered.publish(to: output, encode: encode)
    }
}
