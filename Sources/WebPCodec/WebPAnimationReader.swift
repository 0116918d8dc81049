import CWebP
import FilterCore
import Foundation

/// Every frame of an animated WebP, composed on the canvas by libwebp's animation decoder (each frame's blending and
/// disposal applied), with its duration and the file's loop count. Holds the file and libwebp's canvas, checked
/// against the limits before decoding. A still WebP reads as one frame.
package final class WebPAnimationReader: AnimationReader {
    /// Libwebp's canvas and the previous one, and the frame copied out.
    package var heldBytesPerPixel: Double { 12 }
    package let path: String
    package let width: Int
    package let height: Int
    /// Times the animation plays (0: forever), from its ANIM chunk.
    package let loopCount: Int
    /// Frames in the file.
    package let frameCount: Int
    package var declaredFrameCount: Int? { frameCount }
    /// The ICCP chunk.
    package let iccProfile: [UInt8]?
    /// The EXIF and XMP chunks.
    package let metadata: ImageMetadata

    /// The file's bytes at a fixed address: libwebp's decoder reads them while it lives.
    private let file: UnsafeMutableBufferPointer<UInt8>
    private var decoder: OpaquePointer?
    private var lastTimestamp: Int32 = 0

    package init(descriptor fd: Int32, name path: String, limits: DecodeLimits) throws {
        self.path = path
        let bytes = try WholePicture.readFile(fd, name: path, limit: limits.maxMemory)
        // The canvas and the frames are read from the demuxed header and checked against the limits before libwebp's
        // animation decoder is made: it allocates two canvases at once (a 132-byte file can declare 16383²).
        let header = try WebPHeader(bytes, path: path)
        width = header.width
        height = header.height
        frameCount = header.frameCount
        loopCount = header.loopCount
        iccProfile = header.icc
        var found = ImageMetadata(orientation: 1, iccProfile: iccProfile)
        found.exif = header.exif.flatMap(Exif.tiffStructure(inPayload:))
        found.xmp = header.xmp
        metadata = found
        let fileBytes = Double(bytes.count)
        // libwebp holds the canvas and the previous one (8 bytes a pixel), and we copy each frame out (4 more).
        try limits.checkWhole(path, format: "WebP", width: width, height: height) { Double($0) * 12 + fileBytes }
        file = .allocate(capacity: max(1, bytes.count))
        _ = file.initialize(from: bytes)
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInitInternal(&options, WEBP_DEMUX_ABI_VERSION) != 0 else {
            // deinit runs from here on (every stored property is set): it frees the file.
            throw CodecError(kind: .unsupported, path: path, message: "the WebP library's version does not match its headers")
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 1
        var data = WebPData(bytes: file.baseAddress, size: bytes.count)
        guard let decoder = WebPAnimDecoderNewInternal(&data, &options, WEBP_DEMUX_ABI_VERSION) else {
            throw CodecError(kind: .corrupt, path: path, message: "corrupt WebP: its frames cannot be read")
        }
        self.decoder = decoder
    }

    deinit {
        if let decoder { WebPAnimDecoderDelete(decoder) }
        file.deallocate()
    }

    package func nextFrame() throws -> AnimationFrame? {
        guard let decoder, WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var frame: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
            throw CodecError(kind: .corrupt, path: path, message: "corrupt WebP animation: a frame cannot be decoded")
        }
        // Timestamps are each frame's end.
        defer { lastTimestamp = timestamp }
        return AnimationFrame(pixels: Array(UnsafeBufferPointer(start: frame, count: width * height * 4)),
                              durationMilliseconds: Int(timestamp - lastTimestamp))
    }
}
