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
    /// 1/2, 1/4, 1/8 in the DCT — except where chroma is subsampled unevenly (4:2:2, 4:4:0, 1×4): there libjpeg's
    /// scaled decode upsamples chroma by a different factor on each axis, and the result strays up to 11 codes from
    /// the full decode where the margins keep 4:4:4, 4:2:0 and grey within 2 (BENCHMARKS.md, "Shrink on load
    /// across samplings").
    package var decodeReductions: DecodeReductions {
        DecodeReductions(factors: evenSampling ? [2, 4, 8] : [], method: .boxes, how: "in the JPEG DCT")
    }
    /// Luma sampled alike on both axes (so chroma is too): 4:4:4, 4:2:0, 4:1:0, grey.
    private let evenSampling: Bool

    private(set) var reader: OpaquePointer?
    private let limits: DecodeLimits
    /// Bytes libjpeg holds for the coefficients of a multi-scan file (0 for a single-scan one).
    package private(set) var coefficientBytes: Double = 0
    package var decodingBytes: Double { coefficientBytes }
    package var decodingHolds: String { "coefficients (a progressive JPEG holds them all)" }
    private let profileWarnings: [String]
    private let colorSpace: Int32
    private let adobeInverted: Bool
    private var cmykRow: [UInt8] = []
    /// Rows are inks (0 = no ink) rather than RGB: see `deliverInks()`.
    private var deliveringInks = false
    /// The DCT reduction asked for (`reduce(by:)`).
    private var reduction = 1
    /// A file at 1/8 is read from its DC coefficients alone (`fr_jpeg_reader_dc_image`): a progressive file's DC scans,
    /// a baseline file's scan with its AC codes passed over; its 1/8 image, made at the first row. False reads it
    /// through libjpeg's decode (tests compare the two); `FILTERRUN_JPEG_DC_PATH=0` makes that the default, for
    /// benchmarks.
    package var readsDCScansOnly = JPEGDecoder.dcPathByDefault
    private static let dcPathByDefault = EnvironmentSettings.lenient("FILTERRUN_JPEG_DC_PATH") != 0
    private var dcImage: [UInt8]?
    /// Baseline scans of at least this many bytes are read at 1/8 from three places at once (jpeg_dc_baseline.c);
    /// tests lower it to take that way on small files. Process-wide.
    package static var dcLaneBytes: Int {
        get { fr_jpeg_dc_lane_bytes_now() }
        set { fr_jpeg_dc_set_lane_bytes(newValue) }
    }
    private var dcTried = false

    package convenience init(path: String, maxPixels: Int = 1 << 28, maxMemory: Int = 1 << 30) throws {
        try self.init(path: path, limits: DecodeLimits(maxPixels: maxPixels, maxMemory: maxMemory))
    }

    package convenience init(path: String, limits: DecodeLimits) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CodecError(kind: .io, path: path, message: String(cString: strerror(errno))) }
        try self.init(descriptor: fd, name: path, limits: limits)
    }

    package convenience init(descriptor fd: Int32, name path: String, maxPixels: Int = 1 << 28, maxMemory: Int = 1 << 30) throws {
        try self.init(descriptor: fd, name: path, limits: DecodeLimits(maxPixels: maxPixels, maxMemory: maxMemory))
    }

    /// Reads from `fd` (owned by the decoder from now on, at its start); `name` is what messages call it.
    package init(descriptor fd: Int32, name path: String, limits: DecodeLimits) throws {
        self.path = path
        self.limits = limits
        var raw = fr_jpeg_header()
        var message = [CChar](repeating: 0, count: 256)
        let maxPixels = limits.maxPixels
        let side = UInt32(min(max(maxPixels, 1), 65_535))
        var shimLimits = fr_jpeg_limits(max_width: side, max_height: side, max_memory: limits.maxMemory,
                                        fail_on: Self.level(limits.failOn), max_scans: Int32(DecodeLimits.maxScans),
                                        max_work: limits.maxWork ?? 0)
        guard let reader = fr_jpeg_reader_open(fd, &shimLimits, &raw, &message, message.count) else {
            throw Self.openFailure(String(cString: message), raw, path: path, maxPixels: maxPixels)
        }
        self.reader = reader
        storedWidth = Int(raw.width)
        storedHeight = Int(raw.height)
        width = storedWidth
        height = storedHeight
        colorSpace = raw.color_space
        adobeInverted = raw.adobe_inverted != 0
        isProgressive = raw.progressive != 0
        evenSampling = raw.components == 1 || raw.h_samp == raw.v_samp
        format = raw.color_space == 1 ? .grey8 : .rgb8
        var segments = [[UInt8]]()
        var length = 0
        while let segment = fr_jpeg_reader_app2(reader, Int32(segments.count), &length) {
            segments.append(Array(UnsafeBufferPointer(start: segment, count: length)))
        }
        let (icc, problems) = ICCSegments.assemble(segments)
        profileWarnings = problems.map { "warning: \(FileText.escaped(path)): \($0)" + (icc == nil ? "; read as sRGB" : "") }
        let exif = fr_jpeg_reader_exif(reader, &length).map { Array(UnsafeBufferPointer(start: $0, count: length)) }
        var found = ImageMetadata(orientation: exif.map(Exif.orientation) ?? 1, iccProfile: icc)
        found.exif = exif
        found.xmp = fr_jpeg_reader_xmp(reader, &length).map { Array(UnsafeBufferPointer(start: $0, count: length)) }
        if let standard = found.xmp, ExtendedXMP.namedGUID(standard) != nil {
            var app1 = [[UInt8]]()
            var bytes: UnsafePointer<UInt8>?
            while fr_jpeg_reader_app1(reader, Int32(app1.count), &bytes, &length) != 0, let bytes {
                app1.append(Array(UnsafeBufferPointer(start: bytes, count: length)))
            }
            if let extended = ExtendedXMP(standard: standard, segments: app1) {
                found.extendedXMP = extended
                found.xmp = extended.merged ?? standard
            }
        }
        metadata = found

        let pixels = storedWidth.multipliedReportingOverflow(by: storedHeight)
        if pixels.overflow || pixels.partialValue > maxPixels {
            close()
            throw CodecError(kind: .tooLarge, path: path,
                             message: "image is \(storedWidth)×\(storedHeight) pixels, over the limit of \(maxPixels) (\(SettingName.maxPixels))")
        }
        // A multi-scan (progressive) file keeps every DCT coefficient until its last scan: 128 bytes a block, each
        // component at its own sampling. Refuse before libjpeg allocates them.
        coefficientBytes = fr_jpeg_reader_coefficient_bytes(reader)
        if coefficientBytes > Double(limits.maxMemory) {
            close()
            throw CodecError(kind: .tooLarge, path: path, message: String(
                format: "progressive %d×%d JPEG: decoding it needs %.2f GiB of coefficients, over the memory limit of "
                    + "%.2f GiB (\(SettingName.maxMemory))", storedWidth, storedHeight, coefficientBytes / 1_073_741_824,
                Double(limits.maxMemory) / 1_073_741_824))
        }
    }

    private static func level(_ failOn: FailOn) -> Int32 {
        switch failOn {
        case .never: return Int32(FR_FAIL_NONE)
        case .truncated: return Int32(FR_FAIL_TRUNCATED)
        case .error: return Int32(FR_FAIL_ERROR)
        case .warning: return Int32(FR_FAIL_WARNING)
        }
    }

    /// The error for a file whose header could not be read, in the product's words.
    private static func openFailure(_ text: String, _ raw: fr_jpeg_header, path: String, maxPixels: Int) -> CodecError {
        if raw.truncated != 0 {
            return CodecError(kind: .corrupt, path: path, message: "truncated: the file ends before the image data")
        }
        switch Int(raw.code) {
        case FR_OPEN_DIMENSION:
            return CodecError(kind: .tooLarge, path: path, message: "image is \(raw.width)×\(raw.height) pixels; JPEG "
                              + "decoding handles at most 65500 pixels a side")
        case FR_OPEN_PRECISION:
            return CodecError(kind: .unsupported, path: path, message: "a \(raw.code_param)-bit JPEG; the JPEG library "
                              + "reads 8-bit JPEGs only (convert it first, e.g. to a 16-bit PNG)")
        case FR_OPEN_PROCESS:
            let process = [0xC3: "lossless", 0xC5: "hierarchical", 0xC6: "hierarchical progressive",
                           0xC7: "hierarchical lossless", 0xCB: "lossless (arithmetic)", 0xCD: "hierarchical (arithmetic)",
                           0xCE: "hierarchical progressive (arithmetic)", 0xCF: "hierarchical lossless (arithmetic)"]
            let name = process[Int(raw.code_param)] ?? String(format: "SOF 0x%02X", raw.code_param)
            return CodecError(kind: .unsupported, path: path, message: "a \(name) JPEG; the JPEG library reads baseline, "
                              + "extended and progressive JPEGs only (convert it first)")
        default: break
        }
        if text == "too large" {
            return CodecError(kind: .tooLarge, path: path,
                              message: "image is \(raw.width)×\(raw.height) pixels, over the limit of \(maxPixels) (\(SettingName.maxPixels))")
        }
        if text.hasPrefix("Not a JPEG") { return CodecError(kind: .unrecognised, path: path, message: "not a JPEG file") }
        return CodecError(kind: .corrupt, path: path, message: "corrupt JPEG: \(FileText.escaped(text))")
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
        reduction = factor
    }

    /// The 1/8 image from the DC coefficients, made on first use; nil where that path does not apply
    /// (libjpeg then decodes, as for any other file).
    private func dcRows() -> [UInt8]? {
        guard !dcTried else { return dcImage }
        dcTried = true
        guard readsDCScansOnly, reduction == 8, nextRow == 0, !deliveringInks, colorSpace == 1 || colorSpace == 3,
              let reader else { return nil }
        let rowBytes = width * format.bytesPerPixel
        var image = [UInt8](repeating: 0, count: rowBytes * height)
        let libjpegChroma: Int32 = limits.fidelity == .fast ? 0 : 1
        let made = image.withUnsafeMutableBufferPointer { fr_jpeg_reader_dc_image(reader, $0.baseAddress!, rowBytes, libjpegChroma) }
        if made == 0 { dcImage = image }
        return dcImage
    }

    /// Whether the rows come from the DC scans (`readsDCScansOnly`); set once the first row was read.
    package var readFromDCScans: Bool { dcImage != nil }

    func failure() -> CodecError {
        guard let reader else { return CodecError(kind: .invalidRequest, path: path, message: "decoder is closed") }
        let rows = Int(fr_jpeg_reader_rows_done(reader))
        let message = FileText.escaped(String(cString: fr_jpeg_reader_error(reader)))
        let lenient = " (\(SettingName.failOn(.never)) decodes what is there)"
        switch Int(fr_jpeg_reader_failure_class(reader)) {
        case FR_FAIL_TRUNCATED:
            let place = isProgressive ? "before its last scan" : "in the image data after \(rows) of \(height) rows"
            return CodecError(kind: .corrupt, path: path, message: "truncated: the file ends \(place)\(lenient)")
        case FR_FAIL_ERROR:
            return CodecError(kind: .corrupt, path: path, message: "corrupt JPEG data (\(Self.plain(message))) "
                              + "\(isProgressive ? "in its scans" : "at row \(rows) of \(height)")\(lenient)")
        case FR_FAIL_WARNING:
            return CodecError(kind: .corrupt, path: path, message: "\(Self.plain(message)) (\(SettingName.failOn(.warning)) refuses "
                              + "any irregularity; the default, error, lets this one pass)")
        default: break
        }
        switch fr_jpeg_reader_over_limit(reader) {
        case 1: return CodecError(kind: .tooLarge, path: path, message: "\(message); refused as a decoding bomb")
        case 2: return CodecError(kind: .tooLarge, path: path, message: "progressive JPEG: \(message) (\(SettingName.maxWork))")
        default: break
        }
        if message.contains("Backing store not supported") || message.contains("Insufficient memory") {
            return CodecError(kind: .tooLarge, path: path, message: "decoding needs more memory than the limit (\(SettingName.maxMemory))")
        }
        return CodecError(kind: .corrupt, path: path, message: "corrupt JPEG: \(message) (at row \(rows) of \(height))")
    }

    /// libjpeg's text without its "Corrupt JPEG data: " prefix, which the product's message already says.
    private static func plain(_ message: String) -> String {
        let prefix = "Corrupt JPEG data: "
        return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
    }

    /// Damage let pass below the fail-on level, and ICC segments that could not be used.
    package var fileWarnings: [String] {
        profileWarnings + (reader.map { Self.damage($0, path: path, failOn: limits.failOn) } ?? [])
    }

    private static func damage(_ reader: OpaquePointer, path: String, failOn: FailOn) -> [String] {
        var first: UnsafePointer<CChar>?
        var firstClass: Int32 = 0
        let count = Int(fr_jpeg_reader_warnings(reader, &first, &firstClass))
        guard count > 0, let first else { return [] }
        let text = plain(FileText.escaped(String(cString: first)))
        let what: String
        switch Int(firstClass) {
        case FR_FAIL_TRUNCATED: what = "the file is truncated (\(text)); what is missing is grey"
        case FR_FAIL_ERROR: what = "corrupt JPEG data (\(text)); damaged blocks decode wrong"
        default:
            what = text == "Premature end of JPEG file" ? "the file has no end marker; every row was there" : text
        }
        let more = count > 1 ? " (and \(count - 1) more warning\(count > 2 ? "s" : ""))" : ""
        return ["warning: \(FileText.escaped(path)): \(what)\(more); decoded anyway (\(SettingName.failOn(failOn)))"]
    }

    /// Reads the next `count` rows into `destination`, rows `stride` bytes apart, in `format`.
    package func readRows(into destination: UnsafeMutableRawPointer, stride: Int, count: Int) throws {
        guard let reader else { throw CodecError(kind: .invalidRequest, path: path, message: "decoder is closed") }
        guard count >= 0, nextRow + count <= height else {
            throw CodecError(kind: .invalidRequest, path: path,
                             message: "rows \(nextRow)..<\(nextRow + count) are past the image height \(height)")
        }
        guard count > 0 else { return }
        if let image = dcRows() {
            let rowBytes = width * format.bytesPerPixel
            image.withUnsafeBytes { bytes in
                for i in 0..<count {
                    (destination + i * stride).copyMemory(from: bytes.baseAddress! + (nextRow + i) * rowBytes, byteCount: rowBytes)
                }
            }
            nextRow += count
            return
        }
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

    /// Passes over the next `count` rows without making them (a crop below the top): libjpeg-turbo still reads their
    /// data, but skips the inverse DCT, upsampling and colour conversion.
    package func skipRows(_ count: Int) throws {
        guard let reader else { throw CodecError(kind: .invalidRequest, path: path, message: "decoder is closed") }
        guard count >= 0, nextRow + count <= height else {
            throw CodecError(kind: .invalidRequest, path: path,
                             message: "rows \(nextRow)..<\(nextRow + count) are past the image height \(height)")
        }
        guard count > 0 else { return }
        if dcRows() != nil {
            nextRow += count
            return
        }
        guard fr_jpeg_reader_skip(reader, UInt32(count)) == 0 else { throw failure() }
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
