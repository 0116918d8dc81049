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
/// output's extension or an explicit choice. Every format is read; HEIC is not written (`isWritten`). What each
/// format is — its signature, extensions, decoder, encoder, animation reader and writer, what it carries — its codec
/// module declares (`ImageCodec`); `codecs` registers them, one line each, and everything here reads them.
public enum ImageFileFormat: String, CaseIterable, Sendable {
    case png, jpeg, webp, tiff, avif, jxl, heic, gif

    /// The registry: every format's codec, its writer options bound to `Renderer.Options`. Adding a format is a codec
    /// module with its `ImageCodec` type, a case above and a line here.
    static let codecs: [ImageFileFormat: RegisteredCodec] = Dictionary(uniqueKeysWithValues: [
        RegisteredCodec(PNGFormat.self, \Renderer.Options.png),
        RegisteredCodec(JPEGFormat.self, \Renderer.Options.jpeg),
        RegisteredCodec(WebPFormat.self, \Renderer.Options.webp),
        RegisteredCodec(TIFFFormat.self, \Renderer.Options.tiff),
        RegisteredCodec(AVIFFormat.self, \Renderer.Options.avif),
        RegisteredCodec(JXLFormat.self, \Renderer.Options.jxl),
        RegisteredCodec(HEICFormat.self),
        RegisteredCodec(GIFFormat.self, \Renderer.Options.gif),
    ].map { (ImageFileFormat(rawValue: $0.word)!, $0) })

    /// The formats a server offers by the client's Accept when a URL names none, in order of preference.
    public static let negotiatedByDefault: [ImageFileFormat] = [.webp, .avif]

    /// The format's codec.
    var codec: RegisteredCodec { Self.codecs[self]! }

    /// The format's name in messages ("PNG", "JPEG").
    public var name: String { codec.name }

    /// Its media type ("image/webp").
    public var mediaType: String { codec.mediaType }

    /// Whether outputs can be written in the format. HEIC is read only: its HEVC encoder is patent-encumbered,
    /// and AVIF is the modern output for the same photos.
    public var isWritten: Bool { codec.notWrittenReason == nil }

    /// Whether the playground previews in it: every current browser shows it in full colour.
    package var isPreviewedInBrowsers: Bool { codec.previewedInBrowsers }

    /// Whether the encoder takes a quality (`--quality`).
    package var takesQuality: Bool { codec.takesQuality }

    /// The encoder efforts the format takes (`--effort`), nil for none.
    package var effortRange: ClosedRange<Int>? { codec.effortRange }

    /// Whether animations are written in the format (`--frames all`).
    public var writesAnimations: Bool { codec.writesAnimations }

    /// The formats written.
    public static var writtenCases: [ImageFileFormat] { allCases.filter(\.isWritten) }

    /// The formats animations are written in.
    static var animationCases: [ImageFileFormat] { allCases.filter(\.writesAnimations) }

    /// The formats read, for messages: "PNG, JPEG and WebP".
    public static var readableNames: String { names(allCases, joinedBy: "and") }

    /// The formats written, for messages.
    public static var writtenNames: String { names(writtenCases, joinedBy: "and") }

    /// "PNG, JPEG or WebP".
    static func names(_ formats: [ImageFileFormat] = allCases, joinedBy word: String) -> String {
        list(formats.map(\.name), joinedBy: word)
    }

    /// "a, b or c".
    static func list(_ items: [String], joinedBy word: String) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " \(word) " + items.last!
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
        codec.notWrittenReason.map { reason in
            let others = Self.writtenCases.filter { !reason.contains($0.name) }
            return reason + (others.isEmpty ? "" : ", or " + Self.names(others, joinedBy: "or"))
        }
    }

    /// Extensions that name each format (lowercase).
    public var extensions: [String] { codec.extensions }

    /// The format some bytes announce; other image formats are named in the error.
    public static func sniff(_ head: [UInt8], name: String) throws -> ImageFileFormat {
        if let format = allCases.first(where: { $0.codec.recognises(head) }) { return format }
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
        if limits.page != 0 && !format.codec.hasPages {
            close(fd)
            throw CodecError(kind: .invalidRequest, path: name, message: "\(SettingName.page) \(limits.page) asks for a page, "
                             + "but a \(format.name) image has one (pages are read from "
                             + names(allCases.filter(\.codec.hasPages), joinedBy: "and") + " files)")
        }
        return try format.codec.openDecoder(fd, name, limits)
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
    /// image sequence (brand `avis`; a still AVIF is a still) or a JPEG XL animation (its header says so) — as each
    /// codec tells from the file's first bytes.
    public var rendersAsFrames: Bool {
        guard let format = try? format(), let prefix = format.codec.animationHeadBytes else { return false }
        if prefix == 0 { return true }
        let head: [UInt8]
        switch self {
        case .file(let path):
            guard let handle = FileHandle(forReadingAtPath: path) else { return false }
            defer { try? handle.close() }
            head = [UInt8]((try? handle.read(upToCount: prefix)) ?? Data())
        case .encoded(let data, _):
            head = [UInt8](data.prefix(prefix))
        }
        return format.codec.isAnimation(head)
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

extension Renderer.Options {
    /// Sets the encoder quality (1–100) of every format that takes one.
    public mutating func setQuality(_ quality: Int) {
        for format in ImageFileFormat.allCases { format.codec.setQuality(&self, quality) }
    }
}
