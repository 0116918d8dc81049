import CWebP
import FilterCore
import Foundation

/// An animated WebP written a frame at a time through libwebp's animation encoder (which stores each frame as the
/// rectangle that changed, lossy or lossless as `options` say), published atomically by `finish()`. Holds the
/// encoder's previous canvases and the encoded frames, never the raw frames already added. EXIF and XMP, when
/// given, go in their chunks.
package final class AnimatedWebPWriter: AnimationWriter {
    package let output: OutputFile
    package var path: String { output.path }
    private let width: Int
    private let height: Int
    private let options: WebPWriteOptions
    private let metadata: OutputMetadata?
    private var encoder: OpaquePointer?
    private var config = WebPConfig()
    private var timestamp = 0
    private var published = false

    package init(output: OutputFile, width: Int, height: Int, loopCount: Int, options: WebPWriteOptions,
                 metadata: OutputMetadata? = nil) throws {
        self.output = output
        self.width = width
        self.height = height
        self.options = options
        self.metadata = metadata
        guard (1...16383).contains(width), (1...16383).contains(height) else {
            output.abandon()
            throw CodecError(kind: .invalidRequest, path: output.path,
                             message: "WebP holds images up to 16383 pixels a side; this one is \(width)×\(height)")
        }
        var animation = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInitInternal(&animation, WEBP_MUX_ABI_VERSION) != 0,
              WebPConfigInitInternal(&config, WEBP_PRESET_DEFAULT, Float(options.quality), WEBP_ENCODER_ABI_VERSION) != 0 else {
            output.abandon()
            throw CodecError(kind: .invalidRequest, path: output.path, message: "the WebP library's version does not match its headers")
        }
        animation.anim_params.loop_count = Int32(max(0, min(65535, loopCount)))
        animation.anim_params.bgcolor = 0  // transparent, as a viewer starts
        config.lossless = options.lossless ? 1 : 0
        config.method = Int32(options.effort)
        config.alpha_quality = Int32(options.alphaQuality)
        config.near_lossless = Int32(options.nearLossless)
        config.exact = options.lossless ? 1 : 0
        guard let encoder = WebPAnimEncoderNewInternal(Int32(width), Int32(height), &animation, WEBP_MUX_ABI_VERSION) else {
            output.abandon()
            throw CodecError(kind: .io, path: output.path, message: "out of memory starting the WebP animation")
        }
        self.encoder = encoder
    }

    deinit {
        if let encoder { WebPAnimEncoderDelete(encoder) }
        if !published { output.abandon() }
    }

    package func add(rgba pixels: UnsafeRawPointer, durationMilliseconds: Int) throws {
        guard let encoder else { throw CodecError(kind: .invalidRequest, path: path, message: "the animation is finished") }
        var picture = WebPPicture()
        guard WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw CodecError(kind: .invalidRequest, path: path, message: "the WebP library's version does not match its headers")
        }
        defer { WebPPictureFree(&picture) }
        picture.width = Int32(width)
        picture.height = Int32(height)
        picture.use_argb = 1
        guard WebPPictureImportRGBA(&picture, pixels.assumingMemoryBound(to: UInt8.self), Int32(width * 4)) != 0 else {
            throw CodecError(kind: .io, path: path, message: "out of memory preparing a WebP frame")
        }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &config) != 0 else {
            throw failure("adding a frame")
        }
        timestamp += max(0, durationMilliseconds)
    }

    package func finish() throws {
        guard let encoder else { throw CodecError(kind: .invalidRequest, path: path, message: "the animation is finished") }
        defer { WebPAnimEncoderDelete(encoder); self.encoder = nil }
        // The end of the last frame.
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0 else { throw failure("closing the animation") }
        var data = WebPData(bytes: nil, size: 0)
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else { throw failure("assembling the file") }
        var file = Array(UnsafeBufferPointer(start: bytes, count: data.size))
        var chunks = [(String, [UInt8])]()
        if let exif = metadata?.exif { chunks.append(("EXIF", exif)) }
        if let xmp = metadata?.xmp { chunks.append(("XMP ", xmp)) }
        if !chunks.isEmpty { file = try WebPEncoder.extended(file, chunks: chunks, path: path) }
        try WholePicture.publish(file, to: output)
        published = true
    }

    private func failure(_ doing: String) -> CodecError {
        let reason = encoder.flatMap { WebPAnimEncoderGetError($0) }.map { String(cString: $0) } ?? "unknown error"
        return CodecError(kind: .io, path: path, message: "WebP animation encoding failed \(doing): \(reason)")
    }
}
