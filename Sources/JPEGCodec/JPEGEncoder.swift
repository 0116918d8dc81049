import CJPEGShim
import FilterCore
import Foundation

/// Streaming JPEG writer into an `OutputFile` (published by `finish()`, abandoned otherwise). Takes grey8, greyA8,
/// rgb8 or rgba8 rows; alpha is flattened onto `options.background` (in encoded sRGB values, as editors do), since
/// JPEG stores none. `icc` is embedded when given.
package final class JPEGEncoder: ImageEncoder {
    package let output: OutputFile
    package var path: String { output.path }
    package let width: Int
    package let height: Int
    /// The layout of the rows given to `writeRows`.
    package let format: PixelFormat
    package internal(set) var rowsWritten = 0

    private(set) var writer: OpaquePointer?
    private var finished = false
    private let background: (Int, Int, Int)
    private var flattened: [UInt8] = []

    /// The largest Exif block and XMP packet one APP1 segment holds (65 533 bytes less their names).
    package static let maxExifBytes = 65_533 - 6, maxXMPBytes = 65_533 - 29

    /// The layouts the encoder takes.
    package static func accepts(_ format: PixelFormat) -> Bool { [.grey8, .greyA8, .rgb8, .rgba8].contains(format) }

    /// With `planes` (the luma sampling factors), the encoder takes the Y, Cb, Cr planes of a JPEG moved by
    /// `JPEGPlaneMoves.transcode` instead of rows (`format` must be rgb8; `options.subsampling` is not read).
    package init(output: OutputFile, width: Int, height: Int, format: PixelFormat,
                options: JPEGWriteOptions = .default, icc: [UInt8]? = nil, metadata: OutputMetadata? = nil,
                planes: JPEGPlaneLayout? = nil) throws {
        self.output = output
        self.width = width
        self.height = height
        self.format = format
        func byte(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }
        background = (byte(options.background.r), byte(options.background.g), byte(options.background.b))
        guard Self.accepts(format) else {
            throw CodecError(kind: .invalidRequest, path: output.path, message: "JPEG output takes 8-bit rows, not \(format.rawValue)")
        }
        guard (1...100).contains(options.quality) else {
            throw CodecError(kind: .invalidRequest, path: output.path, message: "JPEG quality must be 1...100")
        }
        var message = [CChar](repeating: 0, count: 256)
        let components: Int32 = format.channels <= 2 ? 1 : 3
        // Exif and XMP each fit one APP1 segment; a larger one is left out (the renderer says so beforehand).
        let exif = metadata?.exif.flatMap { $0.count <= Self.maxExifBytes ? $0 : nil } ?? []
        let xmp = metadata?.xmp.flatMap { $0.count <= Self.maxXMPBytes ? $0 : nil } ?? []
        writer = try (icc ?? []).withUnsafeBufferPointer { profile in
            try exif.withUnsafeBufferPointer { exif in
                try xmp.withUnsafeBufferPointer { xmp in
                    components == 3 && planes != nil
                        ? fr_jpeg_writer_open_planes(try output.writerDescriptor(), UInt32(width), UInt32(height),
                                                     Int32(options.quality), Int32(planes?.h ?? 1), Int32(planes?.v ?? 1),
                                                     options.progressive ? 1 : 0, options.optimizeCoding ? 1 : 0,
                                                     profile.baseAddress, profile.count, exif.baseAddress, exif.count,
                                                     xmp.baseAddress, xmp.count, &message, message.count)
                        : fr_jpeg_writer_open(try output.writerDescriptor(), UInt32(width), UInt32(height), components,
                                              Int32(options.quality), Int32(options.effectiveSubsampling.rawValue),
                                              options.progressive ? 1 : 0, options.optimizeCoding ? 1 : 0,
                                              profile.baseAddress, profile.count, exif.baseAddress, exif.count,
                                              xmp.baseAddress, xmp.count, &message, message.count)
                }
            }
        }
        if writer == nil {
            output.abandon()
            throw CodecError(kind: .io, path: output.path, message: String(cString: message))
        }
        // The XMP written was a standard packet naming its extension: the extension's chunks follow it.
        if let extended = metadata?.extendedXMP, !xmp.isEmpty {
            for segment in extended.segments {
                let failed = segment.withUnsafeBufferPointer { fr_jpeg_writer_marker(writer, 0xE1, $0.baseAddress, $0.count) }
                guard failed == 0 else {
                    fr_jpeg_writer_close(writer)
                    writer = nil
                    output.abandon()
                    throw CodecError(kind: .io, path: output.path, message: "the extended XMP could not be written")
                }
            }
        }
    }

    deinit {
        fr_jpeg_writer_close(writer)
        if !finished { output.abandon() }
    }

    func failure() -> Error {
        guard let writer else { return CodecError(kind: .invalidRequest, path: path, message: "encoder is closed") }
        return CodecError.writing(path, errno: fr_jpeg_writer_errno(writer), library: String(cString: fr_jpeg_writer_error(writer)))
    }

    package func abandon() {
        fr_jpeg_writer_close(writer)
        writer = nil
        output.abandon()
    }

    package func writeRows(_ source: UnsafeRawPointer, stride: Int, count: Int) throws {
        guard let writer, !finished else { throw CodecError(kind: .invalidRequest, path: path, message: "encoder is closed") }
        try CodecError.checkRows(path, done: rowsWritten, count: count, height: height)
        var status: Int32 = 0
        if format.hasAlpha {
            let out = format.channels - 1
            if flattened.count < width * out { flattened = [UInt8](repeating: 0, count: width * out) }
            for i in 0..<count where status == 0 {
                let row = (source + i * stride).assumingMemoryBound(to: UInt8.self)
                flattened.withUnsafeMutableBufferPointer { dst in
                    let bg = [background.0, background.1, background.2]
                    for x in 0..<width {
                        let a = Int(row[x * format.channels + out])
                        for c in 0..<out {
                            let value = Int(row[x * format.channels + c]) * a + bg[out == 1 ? 0 : c] * (255 - a)
                            dst[x * out + c] = UInt8((value + 127) / 255)
                        }
                    }
                    status = fr_jpeg_writer_rows(writer, dst.baseAddress!, width * out, 1)
                }
            }
        } else {
            status = fr_jpeg_writer_rows(writer, source.assumingMemoryBound(to: UInt8.self), stride, UInt32(count))
        }
        guard status == 0 else {
            let error = failure()
            abandon()
            throw error
        }
        rowsWritten += count
    }

    /// Completes the file and publishes it (see `OutputFile.publish()`).
    package func finish() throws {
        guard let writer, !finished else { throw CodecError(kind: .invalidRequest, path: path, message: "encoder is closed") }
        try CodecError.checkComplete(path, written: rowsWritten, height: height)
        guard fr_jpeg_writer_finish(writer) == 0 else {
            let error = failure()
            abandon()
            throw error
        }
        fr_jpeg_writer_close(writer)
        self.writer = nil
        finished = true
        try output.publish()
    }
}
