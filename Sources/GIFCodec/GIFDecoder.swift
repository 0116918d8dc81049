import CGIF
import FilterCore
import Foundation

/// GIF reader (giflib): the first frame composed on the logical screen as a viewer shows it. Global or local colour
/// tables, interlaced rows, the graphics control extension's transparent index; the canvas outside the frame is
/// transparent, and a first frame reaching past the declared screen grows the canvas (as Pillow and browsers do)
/// rather than losing pixels. 8-bit RGB when every pixel is opaque, else RGBA. The file is read whole (giflib
/// reads through a callback from memory) and the canvas is held whole, 4 bytes a pixel at most, refused beyond
/// the limits before anything is decoded. Later frames of an animation are not read yet (`isAnimated` says so).
package final class GIFDecoder: DescriptorDecoder {
    package let path: String
    package let formatName = "GIF"
    package let width: Int
    package let height: Int
    package let format: PixelFormat
    /// Its XMP (GIF has no EXIF or profile).
    package let metadata: ImageMetadata
    package var nextRow: Int { held.nextRow }
    /// Whether another frame follows the first (known after the first row is read).
    package private(set) var isAnimated = false
    package var fileWarnings: [String] { isAnimated ? [CodecError.firstFrameNote(path, frames: nil)] : [] }
    /// The file, the canvas and a row of indices (the figure the limits are checked with).
    package let decodingBytes: Double

    private let file: [UInt8]
    private let reader: Reader
    private var gif: UnsafeMutablePointer<GifFileType>?
    /// The first frame and its transparent index.
    private let frame: GIFImage
    private let transparent: Int?
    private var held = HeldPicture()

    /// giflib's source: the file's bytes and how far it has read.
    final class Reader {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// Reads from `fd` (owned and closed by the decoder, at its start); `name` is what messages call it. The
    /// header and the records before the first image are read here; pixels on the first row asked for.
    package init(descriptor fd: Int32, name path: String, limits: DecodeLimits) throws {
        self.path = path
        let bytes = try WholePicture.readFile(fd, name: path, limit: limits.maxMemory)
        file = bytes
        var found = ImageMetadata()
        found.xmp = Self.xmp(in: bytes)
        metadata = found
        let reader = Reader(bytes)
        self.reader = reader
        var error: Int32 = 0
        let opened = DGifOpen(Unmanaged.passUnretained(reader).toOpaque(), Self.read, &error)
        guard let opened else { throw Self.failure(error, path: path, doing: "read its header") }
        // Until every stored property is set a throw runs no deinit, so giflib's state is closed here on the way out
        // (found by FuzzGIF: each damaged file leaked its decoder, 8.5 KB a run).
        var transparentIndex: Int?
        do {
            var record = UNDEFINED_RECORD_TYPE
            repeat {
                guard DGifGetRecordType(opened, &record) == GIF_OK else { throw Self.failure(opened.pointee.Error, path: path, doing: "read its records") }
                if record == EXTENSION_RECORD_TYPE {
                    var code: Int32 = 0
                    var block: UnsafeMutablePointer<GifByteType>?
                    guard DGifGetExtension(opened, &code, &block) == GIF_OK else { throw Self.failure(opened.pointee.Error, path: path, doing: "read an extension") }
                    if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
                        var control = GraphicsControlBlock()
                        if DGifExtensionToGCB(Int(block[0]), block + 1, &control) == GIF_OK {
                            transparentIndex = control.TransparentColor >= 0 ? Int(control.TransparentColor) : nil
                        }
                    }
                    while block != nil {
                        guard DGifGetExtensionNext(opened, &block) == GIF_OK else { throw Self.failure(opened.pointee.Error, path: path, doing: "read an extension") }
                    }
                } else if record == TERMINATE_RECORD_TYPE {
                    throw CodecError(kind: .corrupt, path: path, message: "corrupt GIF: it holds no image")
                }
            } while record != IMAGE_DESC_RECORD_TYPE
            guard DGifGetImageDesc(opened) == GIF_OK else { throw Self.failure(opened.pointee.Error, path: path, doing: "read its first image") }
            frame = try GIFImage(opened, path: path, which: "its first image")
        } catch let failure {
            var closing: Int32 = 0
            DGifCloseFile(opened, &closing)
            throw failure
        }
        gif = opened
        transparent = transparentIndex
        width = max(Int(opened.pointee.SWidth), frame.left + frame.width)
        height = max(Int(opened.pointee.SHeight), frame.top + frame.height)
        let covers = frame.left == 0 && frame.top == 0 && frame.width == width && frame.height == height
        format = covers && transparentIndex == nil ? .rgb8 : .rgba8
        let fileBytes = file.count, frameBytes = frame.width
        // In floating point: the size is not yet checked, and the product could overflow an Int.
        let holding = { (pixels: Double) in pixels * 4 + Double(frameBytes + fileBytes) }
        decodingBytes = holding(Double(width) * Double(height))
        try limits.checkWhole(path, format: "GIF", width: width, height: height) { holding(Double($0)) }
    }

    deinit { close() }

    private func close() {
        if let gif { var error: Int32 = 0; DGifCloseFile(gif, &error) }
        gif = nil
    }

    package func readRows(into destination: UnsafeMutableRawPointer, stride: Int, count: Int) throws {
        _ = try held.read(path, height: height, rowBytes: width * format.bytesPerPixel, into: destination,
                          stride: stride, count: count, decode: decode)
    }

    /// The first frame's indices, de-interlaced, looked up in its palette on a transparent canvas.
    private func decode() throws -> [UInt8] {
        guard let gif else { throw CodecError(kind: .invalidRequest, path: path, message: "every row was read already") }
        let channels = format.channels
        var canvas = [UInt8](repeating: 0, count: width * height * channels)
        try frame.draw(gif, transparent: transparent, into: &canvas, canvasWidth: width, canvasHeight: height,
                       channels: channels, path: path, which: "its first image")
        // Whether another image follows (an animation): the next records, as far as they can be read (giflib has
        // consumed the first image's data with its last row).
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        var record = UNDEFINED_RECORD_TYPE
        while DGifGetRecordType(gif, &record) == GIF_OK, record == EXTENSION_RECORD_TYPE {
            guard DGifGetExtension(gif, &code, &block) == GIF_OK else { break }
            while block != nil && DGifGetExtensionNext(gif, &block) == GIF_OK {}
        }
        isAnimated = record == IMAGE_DESC_RECORD_TYPE
        close()
        return canvas
    }

    /// The XMP packet of an "XMP DataXMP" application extension (XMP Specification Part 3, 1.1.2), wherever it lies
    /// among the records: XMP's bytes follow the extension's identifier raw (a GIF reader walking them as sub-blocks
    /// is led to the end by the 258-byte "magic trailer" 01 FF FE … 01 00 00 after them). Nil without one, or when
    /// what lies there is not an XMP packet.
    package static func xmp(in bytes: [UInt8]) -> [UInt8]? {
        let identifier: [UInt8] = [0x21, 0xFF, 0x0B] + Array("XMP DataXMP".utf8)
        let trailer: [UInt8] = [0x01, 0xFF, 0xFE, 0xFD]
        // memchr for the first byte, memcmp for the rest: a GIF of many frames is megabytes.
        func find(_ needle: [UInt8], from: Int) -> Int? {
            bytes.withUnsafeBytes { haystack -> Int? in
                needle.withUnsafeBytes { needle -> Int? in
                    guard let base = haystack.baseAddress else { return nil }
                    var at = from
                    while at + needle.count <= haystack.count,
                          let hit = memchr(base + at, Int32(needle[0]), haystack.count - needle.count + 1 - at) {
                        at = UnsafeRawPointer(hit) - base
                        if memcmp(hit, needle.baseAddress!, needle.count) == 0 { return at }
                        at += 1
                    }
                    return nil
                }
            }
        }
        guard !bytes.isEmpty, let start = find(identifier, from: 0),
              let end = find(trailer, from: start + identifier.count) else { return nil }
        let packet = Array(bytes[(start + identifier.count)..<end])
        guard let text = String(bytes: packet, encoding: .utf8), text.contains("<x:xmpmeta") || text.contains("<rdf:RDF") else { return nil }
        return packet
    }

    /// giflib's input function: copies from the `Reader` in the file's user data.
    static let read: InputFunc = { gif, buffer, length in
        guard let gif, let buffer, length > 0 else { return 0 }
        let reader = Unmanaged<Reader>.fromOpaque(gif.pointee.UserData).takeUnretainedValue()
        let count = min(Int(length), reader.bytes.count - reader.offset)
        guard count > 0 else { return 0 }
        reader.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + reader.offset, count: count) }
        reader.offset += count
        return Int32(count)
    }

    /// giflib's error code as a `CodecError` naming the file.
    static func failure(_ code: Int32, path: String, doing what: String) -> CodecError {
        let reason = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        switch code {
        case D_GIF_ERR_READ_FAILED, D_GIF_ERR_EOF_TOO_SOON:
            return CodecError(kind: .corrupt, path: path, message: "truncated: the file ends before GIF could \(what)")
        case D_GIF_ERR_NOT_ENOUGH_MEM:
            return CodecError(kind: .tooLarge, path: path, message: "out of memory decoding the GIF")
        default:
            return CodecError(kind: .corrupt, path: path, message: "corrupt GIF (cannot \(what): \(reason))")
        }
    }
}
