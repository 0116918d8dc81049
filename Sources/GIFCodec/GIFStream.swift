import CGIF
import FilterCore

/// A GIF89a file written by giflib into memory, a frame at a time: the logical screen, NETSCAPE2.0's loop count
/// for animations, then each frame with its own colour table, transparent index and delay.
final class GIFStream {
    /// Where giflib's output callback appends.
    final class Sink { var bytes = [UInt8]() }

    private let sink = Sink()
    private var file: UnsafeMutablePointer<GifFileType>?
    private let width: Int, height: Int
    let path: String

    init(width: Int, height: Int, path: String) throws {
        self.width = width
        self.height = height
        self.path = path
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw CodecError(kind: .invalidRequest, path: path, message: "GIF holds images up to 65535 pixels a side; this one is \(width)×\(height)")
        }
        var error: Int32 = 0
        file = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), { gif, data, count in
            guard let gif, let user = gif.pointee.UserData, let data, count > 0 else { return 0 }
            Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(count)))
            return count
        }, &error)
        guard let file else { throw failure(error, "starting the file") }
        EGifSetGifVersion(file, true)
        try check(EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, nil), "writing the screen")
    }

    deinit { if let file { var error: Int32 = 0; _ = EGifCloseFile(file, &error) } }

    /// Plays the animation `count` times (0: forever); once needs no extension.
    func loop(_ count: Int) throws {
        guard count != 1, let file else { return }
        let repeats = count == 0 ? 0 : min(65535, count - 1)
        try check(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE), "writing the loop count")
        try check(Array("NETSCAPE2.0".utf8).withUnsafeBufferPointer { EGifPutExtensionBlock(file, 11, $0.baseAddress) }, "writing the loop count")
        try check([UInt8]([1, UInt8(repeats & 0xFF), UInt8(repeats >> 8)]).withUnsafeBufferPointer { EGifPutExtensionBlock(file, 3, $0.baseAddress) },
                  "writing the loop count")
        try check(EGifPutExtensionTrailer(file), "writing the loop count")
    }

    /// An "XMP DataXMP" application extension holding `packet` (XMP Specification Part 3, 1.1.2): the packet's bytes
    /// raw, then the 258-byte magic trailer (01 FF FE … 01 00 00) that leads a GIF reader walking them as sub-blocks to
    /// the terminator wherever it lands. giflib writes sub-blocks, so the bytes are handed to it as such a reader
    /// would walk them: each length byte followed by that many bytes, which reproduces them exactly.
    func xmp(_ packet: [UInt8]) throws {
        guard let file, !packet.isEmpty, !packet.contains(0) else { return }
        let raw = packet + [0x01] + (0...255).reversed().map { UInt8($0) }
        try check(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE), "writing the XMP")
        try check(Array("XMP DataXMP".utf8).withUnsafeBufferPointer { EGifPutExtensionBlock(file, 11, $0.baseAddress) }, "writing the XMP")
        var at = 0
        while at < raw.count, raw[at] != 0 {
            let length = Int(raw[at])
            try check(raw.withUnsafeBufferPointer { EGifPutExtensionBlock(file, Int32(length), $0.baseAddress! + at + 1) }, "writing the XMP")
            at += 1 + length
        }
        try check(EGifPutExtensionTrailer(file), "writing the XMP")
    }

    /// A rectangle of the screen.
    typealias Area = (left: Int, top: Int, width: Int, height: Int)

    /// How a frame leaves the screen before the next is drawn.
    enum Disposal {
        /// A still: no timing.
        case none
        /// Cleared to the background, so a later frame's transparent pixels show nothing of this one.
        case background
        /// Left in place, for a next frame that draws only what changed.
        case keep
    }

    /// Adds a frame covering `area` of the screen (the whole screen when nil; the frame's indices are the area's);
    /// `delay` in hundredths of a second.
    func add(_ frame: QuantisedFrame, delay: Int?, disposal: Disposal,
             area: Area? = nil) throws {
        guard let file else { throw CodecError(kind: .invalidRequest, path: path, message: "the GIF is finished") }
        if delay != nil || frame.transparent != nil {
            let mode = switch disposal { case .none: DISPOSAL_UNSPECIFIED; case .background: DISPOSE_BACKGROUND; case .keep: DISPOSE_DO_NOT }
            var control = GraphicsControlBlock(DisposalMode: mode, UserInputFlag: false,
                                               DelayTime: Int32(min(65535, max(0, delay ?? 0))),
                                               TransparentColor: Int32(frame.transparent ?? Int(NO_TRANSPARENT_COLOR)))
            var bytes = [GifByteType](repeating: 0, count: 4)
            _ = EGifGCBToExtension(&control, &bytes)
            try check(EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, 4, bytes), "writing a frame's timing")
        }
        let colours = frame.palette.count / 3
        let table = frame.palette.withUnsafeBytes { raw in
            GifMakeMapObject(Int32(colours), raw.bindMemory(to: GifColorType.self).baseAddress)
        }
        guard let table else { throw CodecError(kind: .tooLarge, path: path, message: "out of memory writing GIF") }
        defer { GifFreeMapObject(table) }
        let area = area ?? (0, 0, width, height)
        try check(EGifPutImageDesc(file, Int32(area.left), Int32(area.top), Int32(area.width), Int32(area.height), false, table), "writing a frame")
        var row = [GifPixelType](repeating: 0, count: area.width)
        for y in 0..<area.height {
            row.replaceSubrange(0..<area.width, with: frame.indices[(y * area.width)..<((y + 1) * area.width)])
            try check(EGifPutLine(file, &row, Int32(area.width)), "writing a frame's rows")
        }
    }

    /// Ends the file and gives its bytes.
    func finish() throws -> [UInt8] {
        guard let file else { throw CodecError(kind: .invalidRequest, path: path, message: "the GIF is finished") }
        self.file = nil
        var error: Int32 = 0
        guard EGifCloseFile(file, &error) == GIF_OK else { throw failure(error, "ending the file") }
        return sink.bytes
    }

    private func check(_ status: Int32, _ doing: String) throws {
        guard status != GIF_OK, let file else { return }
        throw failure(file.pointee.Error, doing)
    }

    private func failure(_ code: Int32, _ doing: String) -> CodecError {
        let reason = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        return CodecError(kind: .io, path: path, message: "GIF encoding failed \(doing): \(reason)")
    }
}
