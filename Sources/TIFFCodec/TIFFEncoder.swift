import CTIFFShim
import FilterCore
import Foundation

/// Streaming TIFF writer (libtiff) into an `OutputFile`: 8- or 16-bit or 32-bit float grey, grey + alpha, RGB or
/// RGBA (alpha unassociated), rows written as strips as they come, lossless compression (floats with the
/// floating-point predictor), the profile in the ICC tag.
/// `finish()` publishes the file; `abandon()` (or dropping the encoder unfinished) removes it.
package final class TIFFEncoder: ImageEncoder {
    package let output: OutputFile
    package var path: String { output.path }
    package let width: Int
    package let height: Int
    /// The layout (channels; the depth when not `floats`).
    package let format: PixelFormat
    /// Rows are 32-bit floats a sample (straight alpha), written as IEEE floats.
    package let floats: Bool
    package private(set) var rowsWritten = 0

    private var writer: OpaquePointer?
    private var finished = false
    /// The Exif block to rewrite field by field when the file is finished.
    private let exif: [UInt8]?

    package static func accepts(_ format: PixelFormat) -> Bool { !format.isFloat }

    package init(output: OutputFile, width: Int, height: Int, format: PixelFormat,
                 options: TIFFWriteOptions = .default, icc: [UInt8]? = nil, metadata: OutputMetadata? = nil,
                 floats: Bool = false) throws {
        self.output = output
        self.width = width
        self.height = height
        self.format = format
        self.floats = floats
        exif = metadata?.exif
        guard Self.accepts(format) else {
            output.abandon()
            throw CodecError(kind: .invalidRequest, path: output.path, message: "TIFF output takes 8- or 16-bit rows, not \(format.rawValue)")
        }
        let compression: Int32
        switch options.compression {
        case .none: compression = 1
        case .lzw: compression = 5
        case .deflate: compression = 8
        }
        do { try TIFFLibrary.load(for: output.path) } catch { output.abandon(); throw error }
        var message = [CChar](repeating: 0, count: 512)
        let xmp = metadata?.xmp ?? []
        writer = try (icc ?? []).withUnsafeBufferPointer { profile in
            try xmp.withUnsafeBufferPointer { xmp in
                fr_tiff_open_write(try output.writerDescriptor(), output.path, UInt32(width), UInt32(height),
                                   Int32(format.channels), Int32(floats ? 32 : format.depth), compression, profile.baseAddress, profile.count,
                                   xmp.baseAddress, xmp.count, &message, message.count)
            }
        }
        if writer == nil {
            output.abandon()
            throw CodecError(kind: .io, path: output.path, message: String(cString: message))
        }
    }

    deinit {
        fr_tiff_close(writer)
        if !finished { output.abandon() }
    }

    package func abandon() {
        fr_tiff_close(writer)
        writer = nil
        output.abandon()
    }

    private func failure() -> Error {
        let reason = writer.map { String(cString: fr_tiff_error($0)) } ?? ""
        return CodecError.writing(path, errno: errno, library: reason)
    }

    package func writeRows(_ source: UnsafeRawPointer, stride: Int, count: Int) throws {
        guard let writer, !finished else { throw CodecError(kind: .invalidRequest, path: path, message: "encoder is closed") }
        try CodecError.checkRows(path, done: rowsWritten, count: count, height: height)
        guard fr_tiff_write_rows(writer, source.assumingMemoryBound(to: UInt8.self), stride, UInt32(count)) == 0 else {
            let error = failure()
            abandon()
            throw error
        }
        rowsWritten += count
    }

    package func finish() throws {
        guard let writer, !finished else { throw CodecError(kind: .invalidRequest, path: path, message: "encoder is closed") }
        try CodecError.checkComplete(path, written: rowsWritten, height: height)
        guard Self.finish(writer, exif: exif) == 0 else {
            let error = failure()
            abandon()
            throw error
        }
        fr_tiff_close(writer)
        self.writer = nil
        finished = true
        try output.publish()
    }

    /// Finishes the file, with the Exif block's fields rewritten into its directories where there is one.
    private static func finish(_ writer: OpaquePointer, exif: [UInt8]?) -> Int32 {
        // Fields Exif allows only in compressed (JPEG) files are left out: the components' order, the compressed
        // bits a pixel, and the pixel dimensions (TIFF's own tags give them).
        let jpegOnly: Set<Int> = [0x9101, 0x9102, 0xA002, 0xA003]
        guard let exif, let (bigEndian, all) = Exif.fields(exif) else { return fr_tiff_finish(writer) }
        let fields = all.filter { $0.directory != .exif || !jpegOnly.contains($0.tag) }
        guard !fields.isEmpty else { return fr_tiff_finish(writer) }
        let bytes = fields.flatMap(\.bytes)
        return bytes.withUnsafeBufferPointer { all in
            var start = 0
            let described = fields.map { field -> fr_tiff_exif_field in
                defer { start += field.bytes.count }
                return fr_tiff_exif_field(directory: field.directory.rawValue, tag: UInt32(field.tag), type: Int32(field.type),
                                          count: UInt32(field.count), bytes: all.baseAddress.map { $0 + start },
                                          length: field.bytes.count)
            }
            var written = 0
            return fr_tiff_finish_with_exif(writer, described, described.count, bigEndian ? 1 : 0, &written)
        }
    }
}
