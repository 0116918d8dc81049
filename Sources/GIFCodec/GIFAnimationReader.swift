import CGIF
import FilterCore
import Foundation

/// Every frame of a GIF, composed as browsers show it (GIF89a's graphics control extension): each frame drawn over
/// the canvas where its pixels are not the transparent index, then the frame's disposal applied before the next —
/// kept, cleared to transparent, or restored to the canvas before the frame. The canvas is the logical screen and
/// starts transparent; frames are clipped to it. The loop
/// count follows browsers: no NETSCAPE2.0 extension plays once, 0 forever, n plays n + 1 times. Holds the file,
/// the canvas and one earlier canvas (8 bytes a pixel), checked against the limits before decoding.
package final class GIFAnimationReader: AnimationReader {
    /// The canvas and the one a frame's disposal restores.
    package var heldBytesPerPixel: Double { 8 }
    package let path: String
    package let width: Int
    package let height: Int
    package private(set) var loopCount = 1
    /// GIF frames are sRGB (an ICCRGBG1 application extension is not read).
    package let iccProfile: [UInt8]? = nil
    /// Its XMP (GIF has no place for EXIF).
    package let metadata: ImageMetadata

    private let reader: GIFDecoder.Reader
    private var gif: UnsafeMutablePointer<GifFileType>?
    private var canvas: [UInt8]
    /// The canvas before the last frame, kept while that frame's disposal restores it.
    private var saved: [UInt8]?
    /// The last frame's disposal, applied before the next frame is drawn.
    private var disposal: (mode: Int32, left: Int, top: Int, width: Int, height: Int)?
    private var frames = 0
    /// Its frames, counted by walking the file's blocks before any is decoded (nil where the walk cannot finish:
    /// damage the decoder will name), so an animation's work is refused before its first frame.
    package let declaredFrameCount: Int?

    package init(descriptor fd: Int32, name path: String, limits: DecodeLimits) throws {
        self.path = path
        let bytes = try WholePicture.readFile(fd, name: path, limit: limits.maxMemory)
        var found = ImageMetadata(orientation: 1, iccProfile: nil)
        found.xmp = GIFDecoder.xmp(in: bytes)
        metadata = found
        declaredFrameCount = Self.countFrames(bytes)
        let reader = GIFDecoder.Reader(bytes)
        self.reader = reader
        var error: Int32 = 0
        guard let opened = DGifOpen(Unmanaged.passUnretained(reader).toOpaque(), GIFDecoder.read, &error) else {
            throw GIFDecoder.failure(error, path: path, doing: "read its header")
        }
        gif = opened
        width = Int(opened.pointee.SWidth)
        height = Int(opened.pointee.SHeight)
        let fileBytes = Double(bytes.count)
        do {
            try limits.checkWhole(path, format: "GIF", width: width, height: height) { Double($0) * 8 + fileBytes }
        } catch let refusal {
            DGifCloseFile(opened, &error)
            gif = nil
            throw refusal
        }
        canvas = [UInt8](repeating: 0, count: width * height * 4)
    }

    deinit { close() }

    /// The image descriptors of a GIF's block stream, its data sub-blocks skipped by their lengths without decoding;
    /// nil where the stream ends or breaks before its trailer.
    package static func countFrames(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 13 else { return nil }
        var at = 13
        if bytes[10] & 0x80 != 0 { at += 3 << (Int(bytes[10] & 7) + 1) }
        /// Skips sub-blocks (a length byte, that many bytes) up to and past the zero-length terminator.
        func skipSubBlocks() -> Bool {
            while at < bytes.count {
                let length = Int(bytes[at])
                at += 1 + length
                if length == 0 { return true }
            }
            return false
        }
        var frames = 0
        while at < bytes.count {
            switch bytes[at] {
            case 0x3B: return frames
            case 0x21:
                at += 2
                guard skipSubBlocks() else { return nil }
            case 0x2C:
                guard at + 10 <= bytes.count else { return nil }
                let packed = bytes[at + 9]
                at += 10
                if packed & 0x80 != 0 { at += 3 << (Int(packed & 7) + 1) }
                at += 1  // the LZW minimum code size
                guard at <= bytes.count, skipSubBlocks() else { return nil }
                frames += 1
            default: return nil
            }
        }
        return nil
    }

    private func close() {
        if let gif { var error: Int32 = 0; DGifCloseFile(gif, &error) }
        gif = nil
    }

    package func nextFrame() throws -> AnimationFrame? {
        guard let gif else { return nil }
        var control = GraphicsControlBlock(DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0,
                                           TransparentColor: NO_TRANSPARENT_COLOR)
        var record = UNDEFINED_RECORD_TYPE
        while true {
            guard DGifGetRecordType(gif, &record) == GIF_OK else {
                throw GIFDecoder.failure(gif.pointee.Error, path: path, doing: "read the records after frame \(frames)")
            }
            switch record {
            case EXTENSION_RECORD_TYPE:
                try readExtension(gif, into: &control)
            case IMAGE_DESC_RECORD_TYPE:
                return try readFrame(gif, control: control)
            case TERMINATE_RECORD_TYPE:
                close()
                guard frames > 0 else { throw CodecError(kind: .corrupt, path: path, message: "corrupt GIF: it holds no image") }
                return nil
            default:
                continue
            }
        }
    }

    /// A graphics control extension (the next frame's delay, disposal and transparent index) or the NETSCAPE2.0
    /// application extension (the loop count); others are passed over.
    private func readExtension(_ gif: UnsafeMutablePointer<GifFileType>, into control: inout GraphicsControlBlock) throws {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(gif, &code, &block) == GIF_OK else {
            throw GIFDecoder.failure(gif.pointee.Error, path: path, doing: "read an extension")
        }
        var netscape = false
        if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
            _ = DGifExtensionToGCB(Int(block[0]), block + 1, &control)
        } else if code == APPLICATION_EXT_FUNC_CODE, let block, block[0] == 11 {
            netscape = Array(UnsafeBufferPointer(start: block + 1, count: 11)) == Array("NETSCAPE2.0".utf8)
                || Array(UnsafeBufferPointer(start: block + 1, count: 11)) == Array("ANIMEXTS1.0".utf8)
        }
        while true {
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else {
                throw GIFDecoder.failure(gif.pointee.Error, path: path, doing: "read an extension")
            }
            guard let sub = block else { return }
            if netscape, sub[0] >= 3, sub[1] == 1 {
                let repeats = Int(sub[2]) | Int(sub[3]) << 8
                loopCount = repeats == 0 ? 0 : min(65535, repeats + 1)
            }
        }
    }

    /// Draws the next frame over the canvas (after the previous frame's disposal) and returns the canvas.
    private func readFrame(_ gif: UnsafeMutablePointer<GifFileType>, control: GraphicsControlBlock) throws -> AnimationFrame {
        guard DGifGetImageDesc(gif) == GIF_OK else {
            throw GIFDecoder.failure(gif.pointee.Error, path: path, doing: "read frame \(frames + 1)")
        }
        let which = "frame \(frames + 1)"
        let image = try GIFImage(gif, path: path, which: which)
        // The previous frame's disposal.
        if let last = disposal {
            let (right, bottom) = (min(width, last.left + last.width), min(height, last.top + last.height))
            if last.mode == DISPOSE_BACKGROUND, right > last.left, bottom > last.top {
                for y in last.top..<bottom {
                    let start = (y * width + last.left) * 4
                    canvas.replaceSubrange(start..<start + (right - last.left) * 4,
                                           with: repeatElement(0, count: (right - last.left) * 4))
                }
            } else if last.mode == DISPOSE_PREVIOUS, let saved {
                canvas = saved
            }
        }
        saved = control.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
        disposal = (control.DisposalMode, image.left, image.top, image.width, image.height)
        let transparent = control.TransparentColor >= 0 ? Int(control.TransparentColor) : nil
        try image.draw(gif, transparent: transparent, into: &canvas, canvasWidth: width, canvasHeight: height,
                       channels: 4, path: path, which: which)
        frames += 1
        return AnimationFrame(pixels: canvas, durationMilliseconds: Int(control.DelayTime) * 10)
    }
}
