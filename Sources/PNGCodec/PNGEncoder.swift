import CPNGShim
import FilterCore
import Foundation

/// Streaming PNG writer into an `OutputFile`: rows go to its temporary file, and `finish()` publishes it. An
/// encoder dropped or failed before that abandons the output, so no partial file is ever left under its name.
package final class PNGEncoder {
    package let output: OutputFile
    package var path: String { output.path }
    package let width: Int
    package let height: Int
    package let format: PixelFormat
    package private(set) var rowsWritten = 0

    private var writer: OpaquePointer?
    private var finished = false
    /// Our parallel compressor, or nil when libpng compresses the rows itself.
    private var chunked: ChunkedDeflate?

    /// Writes to `path`, replacing an existing regular file only when `replace` is true.
    package convenience init(path: String, width: Int, height: Int, format: PixelFormat,
                            options: PNGWriteOptions = .default, replace: Bool = false) throws {
        try self.init(output: try OutputFile(path: path, replace: replace), width: width, height: height,
                      format: format, options: options)
    }

    /// `icc` is embedded as an iCCP chunk; without one the file is tagged sRGB when `tagSRGB`. `metadata`'s Exif
    /// goes in an eXIf chunk, its XMP in an iTXt chunk keyed "XML:com.adobe.xmp".
    package init(output: OutputFile, width: Int, height: Int, format: PixelFormat,
                options: PNGWriteOptions = .default, icc: [UInt8]? = nil, tagSRGB: Bool = false,
                metadata: OutputMetadata? = nil) throws {
        self.output = output
        self.width = width
        self.height = height
        self.format = format
        guard !format.isFloat else {
            throw PNGError(kind: .invalidRequest, path: output.path, message: "PNG cannot store \(format.rawValue)")
        }
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw PNGError(kind: .invalidRequest, path: output.path, message: "cannot write a \(width)×\(height) PNG")
        }
        var message = [CChar](repeating: 0, count: 256)
        let fd = try output.writerDescriptor()
        // The XMP packet as a C string: its bytes then a terminating zero.
        let exif = metadata?.exif ?? [], xmp = metadata?.xmp.map { $0 + [0] } ?? []
        writer = (icc ?? []).withUnsafeBufferPointer { profile in
            exif.withUnsafeBufferPointer { exif in
                xmp.withUnsafeBufferPointer { xmp in
                    fr_png_writer_open(fd, UInt32(width), UInt32(height), Int32(format.channels), Int32(format.depth),
                                       Int32(options.compressionLevel), options.filter.mask, profile.baseAddress, profile.count,
                                       tagSRGB ? 1 : 0, exif.baseAddress, exif.count, xmp.baseAddress, max(0, xmp.count - 1),
                                       &message, message.count)
                }
            }
        }
        if writer == nil {
            output.abandon()
            throw PNGError(kind: .io, path: output.path, message: String(cString: message))
        }
        if case .chunked(let threads, let chunkBytes) = options.compressor {
            chunked = ChunkedDeflate(width: width, format: format, filters: options.filter.mask,
                                     level: options.compressionLevel,
                                     threads: threads > 0 ? threads : DeflatePool.shared.width, chunkBytes: chunkBytes)
        }
    }

    deinit {
        fr_png_writer_close(writer)
        if !finished { output.abandon() }
    }

    /// The failure of the last libpng call: the system's errno where a write failed, else libpng's message.
    private func failure() -> Error {
        guard let writer else { return PNGError(kind: .invalidRequest, path: path, message: "encoder is closed") }
        return CodecError.writing(path, errno: fr_png_writer_errno(writer), library: String(cString: fr_png_writer_error(writer)))
    }

    /// Runs a step of the chunked compressor, turning its failure into the encoder's error (and abandoning).
    private func compressing(_ step: (ChunkedDeflate, OpaquePointer) throws -> Void) throws {
        guard let chunked, let writer else { return }
        do {
            try step(chunked, writer)
        } catch ChunkedDeflate.Failure.memory {
            abandon()
            throw PNGError(kind: .io, path: path, message: "out of memory compressing the image")
        } catch {
            let error = failure()
            abandon()
            throw error
        }
    }

    /// Stops writing and removes the temporary file.
    package func abandon() {
        chunked = nil
        fr_png_writer_close(writer)
        writer = nil
        output.abandon()
    }

    /// Writes `count` rows from `source`, rows `stride` bytes apart, in `format`.
    package func writeRows(_ source: UnsafeRawPointer, stride: Int, count: Int) throws {
        guard let writer, !finished else { throw PNGError(kind: .invalidRequest, path: path, message: "encoder is closed") }
        guard count >= 0, rowsWritten + count <= height else {
            throw PNGError(kind: .invalidRequest, path: path, message: "more rows than the image height \(height)")
        }
        if chunked != nil {
            try compressing { try $0.append(source, stride: stride, count: count, writer: $1) }
            rowsWritten += count
            return
        }
        guard fr_png_writer_rows(writer, source.assumingMemoryBound(to: UInt8.self), stride, UInt32(count)) == 0 else {
            let error = failure()
            abandon()
            throw error
        }
        rowsWritten += count
    }

    /// Writes rows `rows` of `buffer` (whose format and width must match).
    package func writeRows(of buffer: PixelBuffer, rows: Range<Int>) throws {
        guard buffer.format == format, buffer.width == width, rows.lowerBound >= 0, rows.upperBound <= buffer.height else {
            throw PNGError(kind: .invalidRequest, path: path, message: "rows of a \(buffer.width)-wide \(buffer.format.rawValue) buffer given to a \(width)-wide \(format.rawValue) encoder")
        }
        let base = try buffer.hostBytes()
        try writeRows(base + rows.lowerBound * buffer.rowStride, stride: buffer.rowStride, count: rows.count)
    }

    /// Completes the file and publishes it (see `OutputFile.publish()`).
    package func finish() throws {
        guard let writer, !finished else { throw PNGError(kind: .invalidRequest, path: path, message: "encoder is closed") }
        guard rowsWritten == height else {
            throw PNGError(kind: .invalidRequest, path: path, message: "only \(rowsWritten) of \(height) rows written")
        }
        if chunked != nil {
            try compressing { try $0.finish(writer: $1) }
            guard fr_png_writer_finish_idat(writer) == 0 else {
                let error = failure()
                abandon()
                throw error
            }
        } else {
            guard fr_png_writer_finish(writer) == 0 else {
                let error = failure()
                abandon()
                throw error
            }
        }
        fr_png_writer_close(writer)
        self.writer = nil
        finished = true
        try output.publish()
    }

    /// Encodes a whole buffer.
    package static func encode(_ buffer: PixelBuffer, to path: String, options: PNGWriteOptions = .default,
                              replace: Bool = false) throws {
        let encoder = try PNGEncoder(path: path, width: buffer.width, height: buffer.height, format: buffer.format,
                                     options: options, replace: replace)
        try encoder.writeRows(of: buffer, rows: 0..<buffer.height)
        try encoder.finish()
    }
}
