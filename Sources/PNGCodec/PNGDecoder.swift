import CPNGShim
import FilterCore
import Foundation

/// Streaming PNG reader: the header is read on open; rows are pulled top to bottom in strips of any height.
/// Interlaced files are decoded whole on the first pull (Adam7 needs every pass) and then served from memory.
package final class PNGDecoder {
    /// Images declaring more pixels than this are refused before any pixel memory is allocated.
    package static let defaultMaxPixels = 1 << 28
    /// Interlaced images are decoded whole; above this many bytes of decoded pixels they are refused.
    package static let defaultMaxMemory = 1 << 30

    package let path: String
    package let header: PNGHeader
    /// EXIF orientation (eXIf before the image data) and the iCCP profile.
    package let metadata: ImageMetadata
    /// Index of the next row `readRows` returns.
    package private(set) var nextRow = 0

    private var reader: OpaquePointer?
    /// A colour chunk that could not be used.
    package private(set) var colourWarnings: [String] = []
    private var interlacedImage: PixelBuffer?

    package convenience init(path: String, maxPixels: Int = PNGDecoder.defaultMaxPixels,
                            maxMemory: Int = PNGDecoder.defaultMaxMemory) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PNGError(kind: .io, path: path, message: String(cString: strerror(errno)))
        }
        try self.init(descriptor: fd, name: path, maxPixels: maxPixels, maxMemory: maxMemory)
    }

    /// Reads from `fd` (owned by the decoder from now on, at its start); `name` is what messages call it.
    package init(descriptor fd: Int32, name path: String, maxPixels: Int = PNGDecoder.defaultMaxPixels,
                maxMemory: Int = PNGDecoder.defaultMaxMemory) throws {
        self.path = path
        var raw = fr_png_header()
        var message = [CChar](repeating: 0, count: 256)
        // Either side may be as long as the pixel limit allows (the other being 1); PNG caps both at 2^31 − 1.
        let side = UInt32(min(max(maxPixels, 1), Int(Int32.max)))
        guard let reader = fr_png_reader_open(fd, side, side, &raw, &message, message.count) else {
            let text = String(cString: message)
            if raw.truncated != 0 {
                throw PNGError(kind: .corrupt, path: path, message: "truncated: the file ends before the image data")
            }
            if text.hasPrefix("not a PNG") { throw PNGError(kind: .unrecognised, path: path, message: text) }
            throw PNGError(kind: .corrupt, path: path, message: text.isEmpty ? "unreadable PNG" : "corrupt PNG: \(text)")
        }
        self.reader = reader
        guard let colorType = PNGHeader.ColorType(rawValue: Int(raw.color_type)),
              let format = PixelFormat.integer(channels: Int(raw.out_channels), depth: Int(raw.out_depth)) else {
            fr_png_reader_close(reader)
            self.reader = nil
            throw PNGError(kind: .corrupt, path: path, message: "unsupported PNG layout")
        }
        var exifLength = 0, iccLength = 0
        let exif = fr_png_reader_exif(reader, &exifLength).map { Array(UnsafeBufferPointer(start: $0, count: exifLength)) }
        // The colour chunks by the PNG specification's precedence (3rd edition, 4.3): an iCCP profile, else the sRGB
        // chunk, else cHRM/gAMA — whatever order they came in (the choice itself is InputProfiles').
        var gamma = 0.0, chromaticities = [Double](repeating: 0, count: 8)
        let colour = fr_png_reader_colour(reader, &gamma, &chromaticities)
        let icc = fr_png_reader_icc(reader, &iccLength).map { Array(UnsafeBufferPointer(start: $0, count: iccLength)) }
        if colour & 8 != 0 {
            colourWarnings = ["warning: \(FileText.escaped(path)): its iCCP chunk cannot be inflated (damaged, or over 16 MiB); "
                              + "the next colour chunk applies (sRGB, else gAMA/cHRM, else sRGB)"]
        }
        var metadata = ImageMetadata(orientation: exif.map(Exif.orientation) ?? 1, iccProfile: icc)
        metadata.exif = exif
        var xmpLength = 0
        metadata.xmp = fr_png_reader_xmp(reader, &xmpLength).map { Array(UnsafeBufferPointer(start: $0, count: xmpLength)) }
        metadata.declaresSRGB = colour & 1 != 0
        if colour & 2 != 0 { metadata.gamma = gamma }
        if colour & 4 != 0 { metadata.chromaticities = chromaticities }
        self.metadata = metadata
        header = PNGHeader(width: Int(raw.width), height: Int(raw.height), colorType: colorType,
                           bitDepth: Int(raw.bit_depth), interlaced: raw.interlaced != 0,
                           hasTransparency: raw.has_trns != 0, format: format)
        let pixels = header.width.multipliedReportingOverflow(by: header.height)
        if pixels.overflow || pixels.partialValue > maxPixels {
            fr_png_reader_close(reader)
            self.reader = nil
            throw PNGError(kind: .tooLarge, path: path,
                           message: "image is \(header.width)×\(header.height) pixels, over the limit of \(maxPixels) (\(SettingName.maxPixels))")
        }
        let bytes = pixels.partialValue.multipliedReportingOverflow(by: format.bytesPerPixel)
        if header.interlaced && (bytes.overflow || bytes.partialValue > maxMemory) {
            fr_png_reader_close(reader)
            self.reader = nil
            throw PNGError(kind: .tooLarge, path: path, message: String(
                format: "interlaced %d×%d %@: decoding it whole needs %.1f GiB, over the memory limit of %.1f GiB "
                    + "(\(SettingName.maxMemory)); raise the limit or save the image without interlacing",
                header.width, header.height, format.rawValue, Double(bytes.partialValue) / 1_073_741_824,
                Double(maxMemory) / 1_073_741_824))
        }
    }

    deinit { fr_png_reader_close(reader) }

    private func failure() -> PNGError {
        guard let reader else { return PNGError(kind: .invalidRequest, path: path, message: "decoder is closed") }
        let rows = Int(fr_png_reader_rows_done(reader))
        if fr_png_reader_truncated(reader) != 0 {
            let place = rows >= header.height
                ? "after the image data (its end chunk is missing)"
                : header.interlaced ? "in the interlaced image data" : "in the image data after \(rows) of \(header.height) rows"
            return PNGError(kind: .corrupt, path: path, message: "truncated: the file ends \(place)")
        }
        let code = fr_png_reader_errno(reader)
        if code != 0 { return PNGError(kind: .io, path: path, message: "read error: \(String(cString: strerror(code)))") }
        let message = String(cString: fr_png_reader_error(reader))
        let place = rows < header.height && !header.interlaced ? " (at row \(rows) of \(header.height))" : ""
        return PNGError(kind: .corrupt, path: path, message: "corrupt PNG: \(message.isEmpty ? "bad data" : message)\(place)")
    }

    /// Reads the next `count` rows into `destination`, rows `stride` bytes apart, in `header.format`.
    package func readRows(into destination: UnsafeMutableRawPointer, stride: Int, count: Int) throws {
        guard let reader else { throw PNGError(kind: .invalidRequest, path: path, message: "decoder is closed") }
        guard count >= 0, nextRow + count <= header.height else {
            throw PNGError(kind: .invalidRequest, path: path,
                           message: "rows \(nextRow)..<\(nextRow + count) are past the image height \(header.height)")
        }
        if header.interlaced {
            if interlacedImage == nil {
                let image = PixelBuffer(width: header.width, height: header.height, format: header.format)
                guard fr_png_reader_image(reader, image.unsafeRow(0).assumingMemoryBound(to: UInt8.self),
                                          image.rowStride) == 0 else { throw failure() }
                interlacedImage = image
            }
            let image = interlacedImage!
            let rowBytes = header.width * header.format.bytesPerPixel
            for i in 0..<count {
                (destination + i * stride).copyMemory(from: image.unsafeRow(nextRow + i), byteCount: rowBytes)
            }
        } else if count > 0 {
            guard fr_png_reader_rows(reader, destination.assumingMemoryBound(to: UInt8.self), stride,
                                     UInt32(count)) == 0 else { throw failure() }
        }
        nextRow += count
        if nextRow == header.height {
            guard fr_png_reader_finish(reader) == 0 else { throw failure() }
            interlacedImage = nil
        }
    }

    /// Reads the next `count` rows into rows `firstRow...` of `buffer` (whose format must be `header.format`).
    package func readRows(into buffer: PixelBuffer, at firstRow: Int = 0, count: Int) throws {
        guard buffer.format == header.format, buffer.width == header.width, firstRow >= 0, count >= 0,
              firstRow + count <= buffer.height else {
            throw PNGError(kind: .invalidRequest, path: path, message: "rows \(firstRow)..<\(firstRow + count) do not fit a \(buffer.width)×\(buffer.height) \(buffer.format.rawValue) buffer")
        }
        let base = try buffer.mutableHostBytes()
        try readRows(into: base + firstRow * buffer.rowStride, stride: buffer.rowStride, count: count)
    }

    /// Decodes a whole file.
    package static func decode(path: String, maxPixels: Int = PNGDecoder.defaultMaxPixels) throws -> PixelBuffer {
        try PNGDecoder(path: path, maxPixels: maxPixels).readAll()
    }
}
