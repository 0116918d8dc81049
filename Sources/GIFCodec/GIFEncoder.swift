import FilterCore
import Foundation

/// GIF writer into an `OutputFile`: the picture gathered (8-bit grey to RGBA), quantised to at most 256 colours
/// by libimagequant, written by giflib and published by `finish()`; `abandon()` (or dropping the encoder
/// unfinished) removes it. Pixels under half opacity are transparent, the rest opaque (GIF has no partial alpha).
package final class GIFEncoder: WholePictureEncoder {
    package let output: OutputFile
    package let width: Int
    package let height: Int
    package let format: PixelFormat
    package var gathered: GatheredPicture
    private let options: GIFWriteOptions

    /// 8-bit layouts (16-bit rows are reduced by the caller).
    package static func accepts(_ format: PixelFormat) -> Bool { !format.isFloat && format.depth == 8 }

    package init(output: OutputFile, width: Int, height: Int, format: PixelFormat, options: GIFWriteOptions = .default) throws {
        self.output = output
        self.width = width
        self.height = height
        self.format = format
        self.options = options
        do {
            guard Self.accepts(format) else {
                throw CodecError(kind: .invalidRequest, path: output.path, message: "GIF output takes 8-bit rows, not \(format.rawValue)")
            }
            guard (1...65535).contains(width), (1...65535).contains(height) else {
                throw CodecError(kind: .invalidRequest, path: output.path,
                                 message: "GIF holds images up to 65535 pixels a side; this one is \(width)×\(height)")
            }
            try GIFQuantiser.validate(options, path: output.path)
            try GIFQuantiser.load(for: output.path)
        } catch {
            output.abandon()
            throw error
        }
        gathered = GatheredPicture(width: width, height: height, channels: format.hasAlpha ? 4 : 3, sampleBytes: 1)
    }

    deinit { if !gathered.isPublished { output.abandon() } }

    package func encode(_ gathered: GatheredPicture) throws -> [UInt8] {
        var rgba = Self.rgba(gathered.pixels, channels: format.hasAlpha ? 4 : 3)
        let frame = try GIFQuantiser.quantise(&rgba, width: width, height: height, options: options, path: path)
        let stream = try GIFStream(width: width, height: height, path: path)
        try stream.add(frame, delay: nil)
        return try stream.finish()
    }

    /// RGB made RGBA (opaque); RGBA as it is.
    static func rgba(_ pixels: [UInt8], channels: Int) -> [UInt8] {
        guard channels == 3 else { return pixels }
        var out = [UInt8](repeating: 255, count: pixels.count / 3 * 4)
        for p in 0..<pixels.count / 3 {
            out[p * 4] = pixels[p * 3]; out[p * 4 + 1] = pixels[p * 3 + 1]; out[p * 4 + 2] = pixels[p * 3 + 2]
        }
        return out
    }
}

/// An animated GIF written a frame at a time (each frame quantised to its own colour table, delays in hundredths of
/// a second, the loop count as NETSCAPE2.0 says it), published atomically by `finish()`. Holds the coded frames,
/// never the raw frames already added.
package final class AnimatedGIFWriter: AnimationWriter {
    package let output: OutputFile
    package var path: String { output.path }
    private let width: Int, height: Int
    private let options: GIFWriteOptions
    private var stream: GIFStream?
    private var published = false

    package init(output: OutputFile, width: Int, height: Int, loopCount: Int, options: GIFWriteOptions = .default) throws {
        self.output = output
        self.width = width
        self.height = height
        self.options = options
        do {
            try GIFQuantiser.validate(options, path: output.path)
            try GIFQuantiser.load(for: output.path)
            let stream = try GIFStream(width: width, height: height, path: output.path)
            try stream.loop(loopCount)
            self.stream = stream
        } catch {
            output.abandon()
            throw error
        }
    }

    deinit { if !published { output.abandon() } }

    package func add(rgba pixels: UnsafeRawPointer, durationMilliseconds: Int) throws {
        guard let stream else { throw CodecError(kind: .invalidRequest, path: path, message: "the animation is finished") }
        var rgba = [UInt8](UnsafeRawBufferPointer(start: pixels, count: width * height * 4))
        let frame = try GIFQuantiser.quantise(&rgba, width: width, height: height, options: options, path: path)
        try stream.add(frame, delay: (max(0, durationMilliseconds) + 5) / 10)
    }

    package func finish() throws {
        guard let stream else { throw CodecError(kind: .invalidRequest, path: path, message: "the animation is finished") }
        self.stream = nil
        let bytes: [UInt8]
        do { bytes = try stream.finish() } catch {
            output.abandon()
            throw error
        }
        try WholePicture.publish(bytes, to: output)
        published = true
    }
}
