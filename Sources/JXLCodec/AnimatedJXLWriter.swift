import CJXL
import FilterCore
import Foundation

/// A JPEG XL animation written a frame at a time through libjxl: 8-bit RGBA frames (lossy by quality, or lossless),
/// sRGB declared, each frame's duration in milliseconds (1000 ticks a second), the loop count, and EXIF and XMP as
/// boxes when given; published atomically by `finish()`. libjxl marks a frame as the last only if told before it
/// codes it, so each frame waits (one copy) until the next arrives or the animation finishes; coded frames are
/// drained from libjxl as they are given, so no other raw frame is held.
package final class AnimatedJXLWriter: AnimationWriter {
    package let output: OutputFile
    package var path: String { output.path }
    private let width: Int, height: Int
    private var encoder: OpaquePointer?
    private var runner: UnsafeMutableRawPointer?
    private var settings: OpaquePointer?
    private var coded: [UInt8] = []
    /// The frame added last and its duration, not yet given to libjxl.
    private var waiting: (pixels: [UInt8], duration: Int)?
    private var published = false

    package init(output: OutputFile, width: Int, height: Int, loopCount: Int, options: JXLWriteOptions = .default,
                 metadata: OutputMetadata? = nil) throws {
        self.output = output
        self.width = width
        self.height = height
        do {
            try JXLLibrary.load(for: output.path)
            for (name, value, range) in [("quality", options.quality, 1...100), ("effort", options.effort, 1...9)] where !range.contains(value) {
                throw CodecError(kind: .invalidRequest, path: output.path, message: "JPEG XL \(name) must be \(range.lowerBound)...\(range.upperBound), got \(value)")
            }
            guard let encoder = JxlEncoderCreate(nil) else {
                throw CodecError(kind: .tooLarge, path: output.path, message: "out of memory starting the JPEG XL animation")
            }
            self.encoder = encoder
            runner = JxlThreadParallelRunnerCreate(nil, min(JxlThreadParallelRunnerDefaultNumWorkerThreads(), 4))
            if let runner { _ = JxlEncoderSetParallelRunner(encoder, JxlThreadParallelRunner, runner) }
            var info = JxlBasicInfo()
            JxlEncoderInitBasicInfo(&info)
            info.xsize = UInt32(width)
            info.ysize = UInt32(height)
            info.bits_per_sample = 8
            info.num_color_channels = 3
            info.alpha_bits = 8
            info.num_extra_channels = 1
            info.uses_original_profile = options.lossless ? 1 : 0
            info.have_animation = 1
            info.animation.tps_numerator = 1000
            info.animation.tps_denominator = 1
            // Both count as WebP does: 0 plays forever.
            info.animation.num_loops = UInt32(max(0, loopCount))
            try check(JxlEncoderSetBasicInfo(encoder, &info), "its header")
            var srgb = JxlColorEncoding()
            JxlColorEncodingSetToSRGB(&srgb, 0)
            try check(JxlEncoderSetColorEncoding(encoder, &srgb), "its colour encoding")
            try JXLEncoderSetup.addMetadata(metadata, to: encoder, check: check)
            guard let settings = JxlEncoderFrameSettingsCreate(encoder, nil) else {
                throw CodecError(kind: .tooLarge, path: output.path, message: "out of memory starting the JPEG XL animation")
            }
            self.settings = settings
            try JXLEncoderSetup.apply(options, to: settings, check: check)
        } catch {
            close()
            output.abandon()
            throw error
        }
    }

    deinit {
        close()
        if !published { output.abandon() }
    }

    private func close() {
        if let encoder { JxlEncoderDestroy(encoder) }
        if let runner { JxlThreadParallelRunnerDestroy(runner) }
        (encoder, runner, settings) = (nil, nil, nil)
    }

    package func add(rgba pixels: UnsafeRawPointer, durationMilliseconds: Int) throws {
        guard let encoder else { throw CodecError(kind: .invalidRequest, path: path, message: "the animation is finished") }
        if let waiting {
            try give(waiting.pixels, duration: waiting.duration)
            try drain(encoder)
        }
        waiting = ([UInt8](UnsafeRawBufferPointer(start: pixels, count: width * height * 4)), durationMilliseconds)
    }

    /// Gives libjxl a frame to code with its duration.
    private func give(_ pixels: [UInt8], duration: Int) throws {
        guard let settings else { throw CodecError(kind: .invalidRequest, path: path, message: "the animation is finished") }
        var header = JxlFrameHeader()
        JxlEncoderInitFrameHeader(&header)
        header.duration = UInt32(clamping: max(0, duration))
        try check(JxlEncoderSetFrameHeader(settings, &header), "a frame's duration")
        var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        try check(pixels.withUnsafeBytes { JxlEncoderAddImageFrame(settings, &format, $0.baseAddress, $0.count) }, "a frame")
    }

    package func finish() throws {
        guard let encoder else { throw CodecError(kind: .invalidRequest, path: path, message: "the animation is finished") }
        defer { close() }
        guard let last = waiting else { throw CodecError(kind: .invalidRequest, path: path, message: "the animation has no frame") }
        try give(last.pixels, duration: last.duration)
        waiting = nil
        JxlEncoderCloseInput(encoder)
        try drain(encoder)
        try WholePicture.publish(coded, to: output)
        published = true
    }

    /// Appends what libjxl has coded so far to the file's bytes.
    private func drain(_ encoder: OpaquePointer) throws {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let (status, used): (JxlEncoderStatus, Int) = chunk.withUnsafeMutableBufferPointer { buffer in
                var next: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
                var available = buffer.count
                let status = JxlEncoderProcessOutput(encoder, &next, &available)
                return (status, buffer.count - available)
            }
            coded += chunk[0..<used]
            if status == JXL_ENC_SUCCESS { return }
            guard status == JXL_ENC_NEED_MORE_OUTPUT else {
                throw CodecError(kind: .io, path: path, message: "JPEG XL animation encoding failed")
            }
        }
    }

    private func check(_ status: JxlEncoderStatus, _ what: String) throws {
        guard status == JXL_ENC_SUCCESS else {
            throw CodecError(kind: .io, path: output.path, message: "JPEG XL animation encoding failed setting \(what)")
        }
    }
}
