import CFileShim
import FilterCore
import Foundation
import JPEGCodec
import PNGCodec

/// The file formats read and written. Input is recognised by its first bytes, never its name; output follows the
/// output's extension or an explicit choice.
public enum ImageFileFormat: String, CaseIterable, Sendable {
    case png, jpeg

    /// Extensions that name each format (lowercase).
    public var extensions: [String] { self == .png ? ["png"] : ["jpg", "jpeg"] }

    /// The format some bytes announce; other image formats are named in the error.
    public static func sniff(_ head: [UInt8], name: String) throws -> ImageFileFormat {
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.isEmpty { throw CodecError(kind: .unrecognised, path: name, message: "empty file") }
        let other = recognise(head)
        throw CodecError(kind: .unrecognised, path: name, message: other.map {
            "a \($0) image; filterrun reads PNG and JPEG (convert it first, e.g. vips copy IN OUT.png)"
        } ?? "not a PNG or JPEG file")
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

    /// Names the image formats we do not read, so the message says what the file is.
    static func recognise(_ h: [UInt8]) -> String? {
        func ascii(_ from: Int, _ text: String) -> Bool {
            h.count >= from + text.utf8.count && Array(h[from..<(from + text.utf8.count)]) == Array(text.utf8)
        }
        if ascii(0, "GIF87a") || ascii(0, "GIF89a") { return "GIF" }
        if ascii(0, "RIFF") && ascii(8, "WEBP") { return "WebP" }
        if h.starts(with: [0x49, 0x49, 0x2A, 0x00]) || h.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if ascii(0, "BM") { return "BMP" }
        if ascii(4, "ftypavif") || ascii(4, "ftypavis") { return "AVIF" }
        if ascii(4, "ftyphei") || ascii(4, "ftypmif1") || ascii(4, "ftypmsf1") { return "HEIF" }
        if h.starts(with: [0xFF, 0x0A]) || ascii(4, "JXL ") { return "JPEG XL" }
        if ascii(4, "jP  ") { return "JPEG 2000" }
        if ascii(0, "qoif") { return "QOI" }
        if ascii(0, "8BPS") { return "Photoshop (PSD)" }
        if ascii(0, "%PDF") { return "PDF" }
        return nil
    }

    /// The format named by `path`'s extension, if any.
    public static func from(extensionOf path: String) -> ImageFileFormat? {
        let ext = (path as NSString).pathExtension.lowercased()
        return allCases.first { $0.extensions.contains(ext) }
    }

    /// Opens a decoder for the file, whatever its extension.
    package static func openDecoder(path: String, limits: DecodeLimits) throws -> any ImageDecoder {
        switch try sniff(path: path) {
        case .png: return try PNGDecoder(path: path, maxPixels: limits.maxPixels, maxMemory: limits.maxMemory)
        case .jpeg: return try JPEGDecoder(path: path, limits: limits)
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

    /// A decoder for the image, whatever its format: bytes are handed to the decoder through an anonymous
    /// in-memory file, so both paths share every line of the codecs.
    func openDecoder(limits: DecodeLimits) throws -> any ImageDecoder {
        switch self {
        case .file(let path):
            return try ImageFileFormat.openDecoder(path: path, limits: limits)
        case let .encoded(data, name):
            let format = try ImageFileFormat.sniff(Array(data.prefix(16)), name: name)
            let fd = fr_memory_file(name)
            guard fd >= 0 else { throw CodecError(kind: .io, path: name, message: String(cString: strerror(errno))) }
            let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == data.count, lseek(fd, 0, SEEK_SET) == 0 else {
                close(fd)
                throw CodecError(kind: .io, path: name, message: "cannot hold the image in memory")
            }
            switch format {
            case .png: return try PNGDecoder(descriptor: fd, name: name, maxPixels: limits.maxPixels, maxMemory: limits.maxMemory)
            case .jpeg: return try JPEGDecoder(descriptor: fd, name: name, limits: limits)
            }
        }
    }
}
