import CJPEGShim
import FilterCore
import Foundation

/// Streaming JPEG reader (libjpeg-turbo): baseline and progressive, greyscale, YCbCr at any chroma subsampling,
/// restart markers, CMYK and YCCK (Adobe's inverted CMYK included) converted to RGB. Rows are pulled top to
/// bottom; a baseline file holds only a few rows of buffers, a progressive one all its coefficients (about two
/// bytes a sample, capped by `maxMemory`). `reduce(by:)` decodes at 1/2, 1/4 or 1/8 of the size in the DCT.
package final class JPEGDecoder: ImageDecoder {
    package let path: String
    package let formatName = "JPEG"
    package let storedWidth: Int
    package let storedHeight: Int
    package private(set) var width: Int
    package private(set) var height: Int
    /// grey8 or rgb8.
    package private(set) var format: PixelFormat
    package let metadata: ImageMetadata
    package let isProgressive: Bool
    package private(set) var nextRow = 0
    package var decodeReductions: [Int] { [2, 4, 8] }

    private var reader: OpaquePointer?
    private let colorSpace: Int32
    private let adobeInverted: Bool
    private var cmykRow: [UInt8] = []
    /// Rows are inks (0 = no ink) rather than RGB: see `deliverInks()`.
    private var deliveringInks = false

    package convenience init(path: String, maxPixels: Int = 1 << 28, maxMemory: Int = 1 << 30) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CodecError(kind: .io, path: path, message: String(cString: strerror(errno))) }
        try self.init(descriptor: fd, name: path, maxPixels: maxPixels, maxMemory: maxMemory)
    }

    /// Reads from `fd` (owned by the decoder from now on, at its start); `name` is what messages call it.
    package init(descriptor fd: Int32, name path: String, maxPixels: Int = 1 << 28, maxMemory: Int = 1 << 30) throws {
        self.path = path
        var raw = fr_jpeg_header()
        var message = [CChar](repeating: 0, count: 256)
        let side = UInt32(min(max(maxPixels, 1), 65_535))
        guard let reader = fr_jpeg_reader_open(fd, side, side, maxMemory, &raw, &message, message.count) else {
            let text = String(cString: message)
            if raw.truncated != 0 {
                throw CodecError(kind: .corrupt, path: path, message: "truncated: the file ends before the image data")
            }
            if text == "too large" {
                throw CodecError(kind: .tooLarge, path: path,
                                 message: "image is \(raw.width)×\(raw.height) pixels, over the limit of \(maxPixels) (--max-pixels)")
            }
            let kind: CodecError.Kind = text.hasPrefix("Not a JPEG") ? .unrecognised : .corrupt
            throw CodecError(kind: kind, path: path, message: kind == .unrecognised ? "not a JPEG file" : "corrupt JPEG: \(text)")
        }
        self.reader = reader
        storedWidth = Int(raw.width)
        storedHeight = Int(raw.height)
        width = storedWidth
        height = storedHeight
        colorSpace = raw.color_space
        adobeInverted = raw.adobe_inverted != 0
        isProgressive = raw.progressive != 0
        format = raw.color_space == 1 ? .grey8 : .rgb8
        var iccLength = 0, exifLength = 0
        let icc = fr_jpeg_reader_icc(reader, &iccLength).map { Array(UnsafeBufferPointer(start: $0, count: iccLength)) }
        let exif = fr_jpeg_reader_exif(reader, &exifLength).map { Array(UnsafeBufferPointer(start: $0, count: exifLength)) }
        metadata = ImageMetadata(orientation: exif.map(Exif.orientation) ?? 1, iccProfile: icc)

        let pixels = storedWidth.multipliedReportingOverflow(by: storedHeight)
        if pixels.overflow || pixels.partialValue > maxPixels {
            close()
            throw CodecError(kind: .tooLarge, path: path,
                             message: "image is \(storedWidth)×\(storedHeight) pixels, over the limit of \(maxPixels) (--max-pixels)")
        }
        // A progressive file keeps every DCT coefficient (2 bytes a sample, chroma at its own resolution) until
        // the last scan: refuse before libjpeg allocates it.
        let coefficientBytes = Double(pixels.partialValue) * 2 * (raw.components == 1 ? 1 : raw.components == 3 ? 1.5 : 4)
        if isProgressive && coefficientBytes > Double(maxMemory) {
            close()
            throw CodecError(kind: .tooLarge, path: path, message: String(
                format: "progressive %d×%d JPEG: decoding it needs %.1f GiB of coefficients, over the memory limit of "
                    + "%.1f GiB (--max-memory)", storedWidth, storedHeight, coefficientBytes / 1_073_741_824,
                Double(maxMemory) / 1_073_741_824))
        }
    }

    deinit { close() }

    private func close() {
        fr_jpeg_reader_close(reader)
        reader = nil
    }

    package var storesInks: Bool { colorSpace == 4 }
    /// What outputs follow: grey or RGB, whatever rows are delivered as.
    package var storedFormat: PixelFormat { colorSpace == 1 ? .grey8 : .rgb8 }

    package func deliverInks() throws {
        guard colorSpace == 4, nextRow == 0 else {
            throw CodecError(kind: .invalidRequest, path: path, message: "inks are delivered only by CMYK files, before the first row")
        }
        deliveringInks = true
        format = Self.inkFormat
    }

    package func reduce(by factor: Int) throws {
        guard let reader, nextRow == 0, [1, 2, 4, 8].contains(factor) else {
            throw CodecError(kind: .invalidRequest, path: path, message: "cannot reduce by \(factor) now")
        }
        var w: UInt32 = 0, h: UInt32 = 0
        guard fr_jpeg_reader_scale(reader, Int32(8 / factor), &w, &h) == 0 else { throw failure() }
        width = Int(w)
        height = Int(h)
    }

    private func failure() -> CodecError {
        guard let reader else { return CodecError(kind: .invalidRequest, path: path, message: "decoder is closed") }
        let rows = Int(fr_jpeg_reader_rows_done(reader))
        if fr_jpeg_reader_truncated(reader) != 0 {
            return CodecError(kind: .corrupt, path: path,
                              message: "truncated: the file ends in the image data after \(rows) of \(height) rows")
        }
        let message = String(cString: fr_jpeg_reader_error(reader))
        if message.contains("Backing store not supported") || message.contains("Insufficient memory") {
            return CodecError(kind: .tooLarge, path: path, message: "decoding needs more memory than the limit (--max-memory)")
        }
        return CodecError(kind: .corrupt, path: path, message: "corrupt JPEG: \(message) (at row \(rows) of \(height))")
    }

    /// Reads the next `count` rows into `destination`, rows `stride` bytes apart, in `format`.
    package func readRows(into destination: UnsafeMutableRawPointer, stride: Int, count: Int) throws {
        guard let reader else { throw CodecError(kind: .invalidRequest, path: path, message: "decoder is closed") }
        guard count >= 0, nextRow + count <= height else {
            throw CodecError(kind: .invalidRequest, path: path,
                             message: "rows \(nextRow)..<\(nextRow + count) are past the image height \(height)")
        }
        guard count > 0 else { return }
        if colorSpace != 4 {
            guard fr_jpeg_reader_rows(reader, destination.assumingMemoryBound(to: UInt8.self), stride, UInt32(count)) == 0
            else { throw failure() }
        } else {
            if cmykRow.count < width * 4 { cmykRow = [UInt8](repeating: 0, count: width * 4) }
            for i in 0..<count {
                try cmykRow.withUnsafeMutableBufferPointer { cmyk in
                    guard fr_jpeg_reader_rows(reader, cmyk.baseAddress!, width * 4, 1) == 0 else { throw failure() }
                    let row = (destination + i * stride).assumingMemoryBound(to: UInt8.self)
                    if deliveringInks {
                        CMYK.inks(cmyk.baseAddress!, into: row, count: width, inverted: adobeInverted)
                    } else {
                        CMYK.toRGB(cmyk.baseAddress!, into: row, count: width, inverted: adobeInverted)
                    }
                }
            }
        }
        nextRow += count
    }

    /// Decodes a whole file.
    package static func decode(path: String, reducedBy factor: Int = 1, maxPixels: Int = 1 << 28,
                              maxMemory: Int = 1 << 30) throws -> PixelBuffer {
        let decoder = try JPEGDecoder(path: path, maxPixels: maxPixels, maxMemory: maxMemory)
        if factor > 1 { try decoder.reduce(by: factor) }
        return try decoder.readAll()
    }
}

/// CMYK without a profile, as Photoshop, libvips and ImageMagick convert it: R = (1 − C)(1 − K), and so on.
/// Adobe's files store the inks inverted (0 = full ink), which is what their APP14 marker says.
enum CMYK {
    /// The inks as ICC CMYK profiles take them: 0 = no ink (Adobe's files store 255 for no ink).
    static func inks(_ cmyk: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, count: Int, inverted: Bool) {
        for i in 0..<count * 4 { out[i] = inverted ? 255 - cmyk[i] : cmyk[i] }
    }

    static func toRGB(_ cmyk: UnsafePointer<UInt8>, into rgb: UnsafeMutablePointer<UInt8>, count: Int, inverted: Bool) {
        for x in 0..<count {
            var c = Int(cmyk[4 * x]), m = Int(cmyk[4 * x + 1]), y = Int(cmyk[4 * x + 2]), k = Int(cmyk[4 * x + 3])
            if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
            // Now each value is the share of white left: 255 = no ink.
            rgb[3 * x] = UInt8((c * k + 127) / 255)
            rgb[3 * x + 1] = UInt8((m * k + 127) / 255)
            rgb[3 * x + 2] = UInt8((y * k + 127) / 255)
        }
    }
}
