import CFileShim
import FilterCore
import Foundation
import GIFCodec
import HEIFCodec
import JXLCodec
import JPEGCodec
import PNGCodec
import TIFFCodec
import WebPCodec

/// The file formats read and written. Input is recognised by its first bytes, never its name; output follows the
/// output's extension or an explicit choice. Every format is read; HEIC is not written (`isWritten`).
public enum ImageFileFormat: String, CaseIterable, Sendable {
    case png, jpeg, webp, tiff, avif, jxl, heic, gif

    /// The format's name in messages ("PNG", "JPEG").
    public var name: String { self == .webp ? "WebP" : self == .jxl ? "JPEG XL" : rawValue.uppercased() }

    /// Whether outputs can be written in the format. HEIC is read only: its HEVC encoder is patent-encumbered,
    /// and AVIF is the modern output for the same photos.
    public var isWritten: Bool { self != .heic }

    /// The formats written.
    public static var writtenCases: [ImageFileFormat] { allCases.filter(\.isWritten) }

    /// The formats read, for messages: "PNG, JPEG and WebP".
    public static var readableNames: String { names(allCases, joinedBy: "and") }

    /// The formats written, for messages.
    public static var writtenNames: String { names(writtenCases, joinedBy: "and") }

    /// "PNG, JPEG or WebP".
    static func names(_ formats: [ImageFileFormat] = allCases, joinedBy word: String) -> String {
        let names = formats.map(\.name)
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " \(word) " + names.last!
    }

    /// The names `format` options accept ("png", "jpeg", "jpg"): the formats written, for help and messages.
    public static var formatWords: [String] {
        writtenCases.flatMap { format in [format.rawValue] + format.extensions.filter { $0 != format.rawValue } }
    }

    /// The format a word names: its name or one of its extensions, in any case ("jpg", "PNG").
    public init?(word: String) {
        let word = word.lowercased()
        guard let format = Self.allCases.first(where: { $0.rawValue == word || $0.extensions.contains(word) }) else { return nil }
        self = format
    }

    /// Why an output cannot be written in this format, naming the fix; nil when it can.
    public var notWrittenReason: String? {
        switch self {
        case .heic:
            return "HEIC is read but not written (its HEVC encoder is patent-encumbered); write AVIF (.avif), the same "
                + "family's modern format, or \(Self.names(Self.writtenCases.filter { $0 != .avif }, joinedBy: "or"))"
        default:
            return nil
        }
    }

    /// Extensions that name each format (lowercase).
    public var extensions: [String] {
        switch self {
        case .png: return ["png"]
        case .jpeg: return ["jpg", "jpeg"]
        case .webp: return ["webp"]
        case .tiff: return ["tif", "tiff"]
        case .avif: return ["avif"]
        case .heic: return ["heic", "heif", "hif"]
        case .gif: return ["gif"]
        case .jxl: return ["jxl"]
        }
    }

    /// The format some bytes announce; other image formats are named in the error.
    public static func sniff(_ head: [UInt8], name: String) throws -> ImageFileFormat {
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        // Classic TIFF (42) and BigTIFF (43), either byte order.
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || head.starts(with: [0x49, 0x49, 0x2B, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2B]) { return .tiff }
        if head.count >= 12 && head.starts(with: Array("RIFF".utf8)) && Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        if let family = heifBrand(head) { return family }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
        // A bare codestream, or the ISOBMFF container with its "JXL " signature box.
        if head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .jxl }
        if head.isEmpty { throw CodecError(kind: .unrecognised, path: name, message: "empty file") }
        let other = recognise(head)
        throw CodecError(kind: .unrecognised, path: name, message: other.map {
            "\($0) image; this build reads \(readableNames) (convert it first, e.g. vips copy IN OUT.png)"
        } ?? "not a \(names(joinedBy: "or")) file")
    }

    /// The format a file's first bytes announce; other image formats are named in the error.
    public static func sniff(path: String) throws -> ImageFileFormat {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            var info = stat()
            let reason = stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
                ? "is a directory" : String(cString: strerror(errno))
            throw CodecError(kind: .io, path: path, message: reason)
        }
        defer { try? handle.close() }
        let head: [UInt8]
        do { head = Array(try handle.read(upToCount: 16) ?? Data()) }
        catch { throw CodecError(kind: .io, path: path, message: "cannot read: \(error.localizedDescription)") }
        return try sniff(head, name: path)
    }

    /// Whether `head` (a file's first 16 bytes) starts like an image of any format named in messages — image bytes
    /// on stdin, told from a list of paths.
    public static func looksLikeImage(_ head: [UInt8]) -> Bool {
        (try? sniff(head, name: "")) != nil || recognise(head) != nil
    }

    /// Names the image formats we do not read, with their article ("an AVIF"), so the message says what the file is.
    static func recognise(_ h: [UInt8]) -> String? {
        func ascii(_ from: Int, _ text: String) -> Bool {
            h.count >= from + text.utf8.count && Array(h[from..<(from + text.utf8.count)]) == Array(text.utf8)
        }
        if ascii(0, "BM") { return "a BMP" }
        if ascii(4, "jP  ") { return "a JPEG 2000" }
        if ascii(0, "qoif") { return "a QOI" }
        if ascii(0, "8BPS") { return "a Photoshop (PSD)" }
        if ascii(0, "%PDF") { return "a PDF" }
        return nil
    }

    /// The HEIF-family format an ISOBMFF file's major brand names (AVIF for AV1, HEIC for HEVC and the generic
    /// image brands, whose codec libheif finds in the file).
    static func heifBrand(_ head: [UInt8]) -> ImageFileFormat? {
        guard head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) else { return nil }
        switch String(decoding: head[8..<12], as: UTF8.self) {
        case "avif", "avis": return .avif
        case "heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1", "mif2": return .heic
        default: return nil
        }
    }

    /// The format named by `path`'s extension, if any.
    public static func from(extensionOf path: String) -> ImageFileFormat? {
        let ext = (path as NSString).pathExtension.lowercased()
        return allCases.first { $0.extensions.contains(ext) }
    }

    /// Opens a decoder for the file, whatever its extension, through one descriptor: a regular file is decoded
    /// in place; a pipe, FIFO or terminal (`/dev/stdin`, `<(…)`) is read to its end first, within
    /// `limits.maxMemory` bytes and with a deadline between bytes, so it never hangs on a FIFO nobody writes to;
    /// sockets and devices are refused.
    package static func openDecoder(path: String, limits: DecodeLimits) throws -> any ImageDecoder {
        // Non-blocking, so opening a FIFO with no writer returns at once.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw CodecError(kind: .io, path: path, message: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw CodecError(kind: .io, path: path, message: reason)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            var head = [UInt8](repeating: 0, count: 16)
            let count = pread(fd, &head, head.count, 0)
            let format: ImageFileFormat
            do { format = try sniff(Array(head.prefix(max(0, count))), name: path) } catch { close(fd); throw error }
            return try decoder(format, descriptor: fd, name: path, limits: limits)
        case S_IFIFO, S_IFCHR:
            let bytes: Data
            do { bytes = try readStream(fd, name: path, limit: limits.maxMemory) } catch { close(fd); throw error }
            close(fd)
            guard !bytes.isEmpty else {
                throw CodecError(kind: .io, path: path, message: "no bytes arrived (a pipe or FIFO with no writer, or "
                                 + "an empty one)")
            }
            return try ImageInput.encoded(bytes, name: path).openDecoder(limits: limits)
        default:
            close(fd)
            let kind = (info.st_mode & S_IFMT) == S_IFDIR ? "is a directory" : "is not a regular file, pipe or FIFO"
            throw CodecError(kind: .io, path: path, message: kind)
        }
    }

    /// How long a stream may pause before its read is abandoned.
    static let streamPause: Int32 = 30_000

    /// Reads a pipe or FIFO to its end; more than `limit` bytes, or a pause over `streamPause` ms, is an error.
    static func readStream(_ fd: Int32, name: String, limit: Int) throws -> Data {
        var data = Data(), chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n > 0 {
                guard data.count + n <= limit else {
                    throw CodecError(kind: .tooLarge, path: name, message: "the stream holds more than \(limit) bytes, "
                                     + "the memory limit (\(SettingName.maxMemory)) for an input read whole")
                }
                data.append(contentsOf: chunk[0..<n])
            } else if n == 0 {
                return data
            } else if errno == EAGAIN {
                var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&waiting, 1, streamPause) == 0 {
                    throw CodecError(kind: .io, path: name, message: "no bytes arrived for \(streamPause / 1000) s; gave up")
                }
            } else if errno != EINTR {
                throw CodecError(kind: .io, path: name, message: String(cString: strerror(errno)))
            }
        }
    }

    /// The format's decoder on `fd` (owned by it from now on), at the file's start.
    static func decoder(_ format: ImageFileFormat, descriptor fd: Int32, name: String, limits: DecodeLimits) throws -> any ImageDecoder {
        if limits.page != 0 && format != .tiff {
            close(fd)
            throw CodecError(kind: .invalidRequest, path: name, message: "\(SettingName.page) \(limits.page) asks for a page, "
                             + "but a \(format.name) image has one (pages are read from TIFF files)")
        }
        switch format {
        case .png: return try PNGDecoder(descriptor: fd, name: name, maxPixels: limits.maxPixels, maxMemory: limits.maxMemory)
        case .jpeg: return try JPEGDecoder(descriptor: fd, name: name, limits: limits)
        case .webp: return try WebPDecoder(descriptor: fd, name: name, limits: limits)
        case .tiff: return try TIFFDecoder(descriptor: fd, name: name, limits: limits)
        case .heic: return try HEIFDecoder(descriptor: fd, name: name, limits: limits)
        case .avif:
            // What libheif 1.15 cannot read as a still (a sequence of tracks alone, a layered image's operating
            // point) libavif may: the file is read again through it, when it can be, before the error stands.
            let again = dup(fd)
            defer { if again >= 0 { close(again) } }
            do { return try HEIFDecoder(descriptor: fd, name: name, limits: limits) } catch let error as CodecError
                where (error.kind == .corrupt || error.kind == .unsupported) && again >= 0 && lseek(again, 0, SEEK_SET) == 0 {
                guard let fallback = try? AVIFFirstFrameDecoder(descriptor: dup(again), name: name, limits: limits) else { throw error }
                return fallback
            }
        case .gif: return try GIFDecoder(descriptor: fd, name: name, limits: limits)
        case .jxl: return try JXLDecoder(descriptor: fd, name: name, limits: limits)
        }
    }
}

/// Where an input image comes from: a file, or encoded bytes in memory.
public enum ImageInput: Sendable {
    case file(String)
    case encoded(Data, name: String)

    /// What messages call it.
    public var name: String {
        switch self {
        case .file(let path): return path
        case .encoded(_, let name): return name
        }
    }

    /// The format the image's first bytes say it is in.
    public func format() throws -> ImageFileFormat {
        switch self {
        case .file(let path): return try ImageFileFormat.sniff(path: path)
        case let .encoded(data, name): return try ImageFileFormat.sniff(Array(data.prefix(16)), name: name)
        }
    }

    /// Whether `--frames all` renders the image frame by frame: a GIF or WebP (a still one as one frame), an AVIF
    /// image sequence (brand `avis`; a still AVIF is a still) or a JPEG XL animation (its header says so).
    public var rendersAsFrames: Bool {
        guard let format = try? format() else { return false }
        if format == .gif || format == .webp { return true }
        guard format == .avif || format == .jxl else { return false }
        // The AVIF brand is in the first 12 bytes; a JPEG XL header (after any boxes before the codestream) in the first 64 KiB.
        let prefix = format == .avif ? 12 : 1 << 16
        let head: [UInt8]
        switch self {
        case .file(let path):
            guard let handle = FileHandle(forReadingAtPath: path) else { return false }
            defer { try? handle.close() }
            head = [UInt8]((try? handle.read(upToCount: prefix)) ?? Data())
        case .encoded(let data, _):
            head = [UInt8](data.prefix(prefix))
        }
        return format == .avif ? AVIFSequenceReader.isSequence(head) : JXLAnimationReader.isAnimation(head)
    }

    /// A decoder for the image, whatever its format: bytes are handed to the decoder through an anonymous
    /// in-memory file, so both paths share every line of the codecs.
    func openDecoder(limits: DecodeLimits) throws -> any ImageDecoder {
        switch self {
        case .file(let path):
            return try ImageFileFormat.openDecoder(path: path, limits: limits)
        case .encoded:
            let (format, fd) = try openDescriptor()
            return try ImageFileFormat.decoder(format, descriptor: fd, name: name, limits: limits)
        }
    }

    /// The image's format (told by its bytes) and a descriptor reading it from the start, which the caller owns:
    /// the file's, or an anonymous in-memory file holding the bytes.
    func openDescriptor() throws -> (ImageFileFormat, Int32) {
        let format = try format()
        switch self {
        case .file(let path):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw CodecError(kind: .io, path: path, message: String(cString: strerror(errno))) }
            return (format, fd)
        case let .encoded(data, name):
            let fd = fr_memory_file(name)
            guard fd >= 0 else { throw CodecError(kind: .io, path: name, message: String(cString: strerror(errno))) }
            let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == data.count, lseek(fd, 0, SEEK_SET) == 0 else {
                close(fd)
                throw CodecError(kind: .io, path: name, message: "cannot hold the image in memory")
            }
            return (format, fd)
        }
    }
}
