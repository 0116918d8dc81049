import CPNGShim
import FilterCore
import Foundation

/// Streaming PNG writer. Rows go to a temporary file beside the destination, which is renamed over it only by
/// `finish()`; an encoder dropped before that removes its temporary file, so a failed or interrupted write never
/// leaves a partial file under the destination name.
public final class PNGEncoder {
    public let path: String
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public private(set) var rowsWritten = 0

    private var writer: OpaquePointer?
    private let temporaryPath: String
    private var finished = false

    public init(path: String, width: Int, height: Int, format: PixelFormat,
                options: PNGWriteOptions = .default) throws {
        guard !format.isFloat else {
            throw PNGError(kind: .invalidRequest, path: path, message: "PNG cannot store \(format.rawValue)")
        }
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw PNGError(kind: .invalidRequest, path: path, message: "cannot write a \(width)×\(height) PNG")
        }
        self.path = path
        self.width = width
        self.height = height
        self.format = format
        let url = URL(fileURLWithPath: path)
        var template = Array(url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).XXXXXX").path.utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw PNGError(kind: .io, path: path, message: "cannot create output: \(String(cString: strerror(errno)))")
        }
        temporaryPath = String(cString: template)
        fchmod(fd, 0o644 & ~Self.umaskValue)
        var message = [CChar](repeating: 0, count: 256)
        writer = fr_png_writer_open(fd, UInt32(width), UInt32(height), Int32(format.channels), Int32(format.depth),
                                    Int32(options.compressionLevel), options.filter.mask, &message, message.count)
        if writer == nil {
            unlink(temporaryPath)
            throw PNGError(kind: .io, path: path, message: String(cString: message))
        }
    }

    private static let umaskValue: mode_t = {
        let current = umask(0)
        umask(current)
        return current
    }()

    deinit {
        fr_png_writer_close(writer)
        if !finished { unlink(temporaryPath) }
    }

    private func failure() -> PNGError {
        let message = writer.map { String(cString: fr_png_writer_error($0)) } ?? "writer closed"
        return PNGError(kind: .io, path: path, message: message.isEmpty ? "write failed" : message)
    }

    /// Writes `count` rows from `source`, rows `stride` bytes apart, in `format`.
    public func writeRows(_ source: UnsafeRawPointer, stride: Int, count: Int) throws {
        guard let writer, !finished else { throw PNGError(kind: .invalidRequest, path: path, message: "encoder is closed") }
        guard count >= 0, rowsWritten + count <= height else {
            throw PNGError(kind: .invalidRequest, path: path, message: "more rows than the image height \(height)")
        }
        guard fr_png_writer_rows(writer, source.assumingMemoryBound(to: UInt8.self), stride, UInt32(count)) == 0 else {
            throw failure()
        }
        rowsWritten += count
    }

    /// Writes rows `rows` of `buffer` (whose format and width must match).
    public func writeRows(of buffer: PixelBuffer, rows: Range<Int>) throws {
        precondition(buffer.format == format && buffer.width == width)
        let base = try buffer.hostBytes()
        try writeRows(base + rows.lowerBound * buffer.rowStride, stride: buffer.rowStride, count: rows.count)
    }

    /// Completes the file, flushes it to disk and renames it to `path`.
    public func finish() throws {
        guard let writer, !finished else { throw PNGError(kind: .invalidRequest, path: path, message: "encoder is closed") }
        guard rowsWritten == height else {
            throw PNGError(kind: .invalidRequest, path: path, message: "only \(rowsWritten) of \(height) rows written")
        }
        guard fr_png_writer_finish(writer) == 0 else { throw failure() }
        fr_png_writer_close(writer)
        self.writer = nil
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            finished = true
            throw PNGError(kind: .io, path: path, message: "cannot move output into place: \(reason)")
        }
        finished = true
    }

    /// Encodes a whole buffer.
    public static func encode(_ buffer: PixelBuffer, to path: String, options: PNGWriteOptions = .default) throws {
        let encoder = try PNGEncoder(path: path, width: buffer.width, height: buffer.height, format: buffer.format,
                                     options: options)
        try encoder.writeRows(of: buffer, rows: 0..<buffer.height)
        try encoder.finish()
    }
}
