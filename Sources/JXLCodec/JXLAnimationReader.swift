import CJXL
import FilterCore
import Foundation

/// Every frame of a JPEG XL animation, composed on the canvas by libjxl (its frames coalesced: each frame's blending
/// and placement applied, as a viewer shows it), as 8-bit RGBA with its duration and the file's loop count; libjxl
/// turns the frames upright by the file's orientation. Holds the file and libjxl's canvas, checked against the limits
/// before decoding; one frame is decoded at a time. A still JPEG XL reads as one frame.
package final class JXLAnimationReader: AnimationReader {
    /// Libjxl's frame buffers and the frame.
    package var heldBytesPerPixel: Double { 24 }
    package let path: String
    package let width: Int
    package let height: Int
    package let loopCount: Int
    package let iccProfile: [UInt8]?
    /// Its Exif and XMP boxes.
    package let metadata: ImageMetadata
    /// libjxl turns the frames upright.
    package let framesUpright = true

    /// The file's bytes at a fixed address: libjxl reads them while the decoder lives.
    private let file: UnsafeMutableBufferPointer<UInt8>
    private var decoder: OpaquePointer?
    private var runner: UnsafeMutableRawPointer?
    /// Milliseconds a tick of the animation lasts.
    private let tick: Double
    private var finished = false

    package init(descriptor fd: Int32, name path: String, limits: DecodeLimits) throws {
        self.path = path
        let bytes = try WholePicture.readFile(fd, name: path, limit: limits.maxMemory)
        try JXLLibrary.load(for: path)
        file = .allocate(capacity: max(1, bytes.count))
        _ = file.initialize(from: bytes)
        var found = ImageMetadata(orientation: 1, iccProfile: nil)
        (found.exif, found.xmp) = JXLDecoder.metadataBoxes(UnsafeBufferPointer(file))
        guard let decoder = JxlDecoderCreate(nil) else {
            file.deallocate()
            throw CodecError(kind: .tooLarge, path: path, message: "out of memory opening the JPEG XL file")
        }
        self.decoder = decoder
        runner = JxlThreadParallelRunnerCreate(nil, min(JxlThreadParallelRunnerDefaultNumWorkerThreads(), 4))
        var info = JxlBasicInfo()
        var icc: [UInt8]?
        do {
            let events = JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue
                | JXL_DEC_FULL_IMAGE.rawValue
            guard JxlDecoderSubscribeEvents(decoder, Int32(events)) == JXL_DEC_SUCCESS,
                  JxlDecoderSetUnpremultiplyAlpha(decoder, 1) == JXL_DEC_SUCCESS,
                  runner.map({ JxlDecoderSetParallelRunner(decoder, JxlThreadParallelRunner, $0) == JXL_DEC_SUCCESS }) ?? true,
                  JxlDecoderSetInput(decoder, file.baseAddress, bytes.count) == JXL_DEC_SUCCESS else {
                throw CodecError(kind: .unsupported, path: path, message: "the JPEG XL library refused its settings")
            }
            JxlDecoderCloseInput(decoder)
            header: while true {
                let status = JxlDecoderProcessInput(decoder)
                if status == JXL_DEC_BASIC_INFO {
                    guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
                        throw JXLDecoder.corrupt(path, "its header cannot be read")
                    }
                } else if status == JXL_DEC_COLOR_ENCODING {
                    icc = JXLDecoder.pixelsProfile(decoder)
                    break header
                } else {
                    throw JXLDecoder.failure(status, path)
                }
            }
            // libjxl applies the orientation: a quarter-turned one swaps the sides.
            let turned = info.orientation.rawValue >= 5 && info.orientation.rawValue <= 8
            width = Int(turned ? info.ysize : info.xsize)
            height = Int(turned ? info.xsize : info.ysize)
            // libjxl holds its canvas (floats for its blending: 16 bytes a pixel at most) and the frame it writes; we copy it out.
            let fileBytes = Double(bytes.count)
            try limits.checkWhole(path, format: "JPEG XL", width: width, height: height) { Double($0) * 24 + fileBytes }
        } catch {
            if let runner { JxlThreadParallelRunnerDestroy(runner) }
            JxlDecoderDestroy(decoder)
            file.deallocate()
            throw error
        }
        iccProfile = icc
        found.iccProfile = icc
        metadata = found
        let animated = info.have_animation != 0
        loopCount = animated ? Int(info.animation.num_loops) : 0
        let ticks = animated && info.animation.tps_numerator > 0 ? Double(info.animation.tps_denominator) / Double(info.animation.tps_numerator) : 0
        tick = ticks * 1000
    }

    /// Whether the JPEG XL whose first bytes are `head` says it is an animation (false where its header is not in
    /// them, or libjxl cannot be loaded).
    package static func isAnimation(_ head: [UInt8]) -> Bool {
        guard (try? JXLLibrary.load(for: "")) != nil, let decoder = JxlDecoderCreate(nil) else { return false }
        defer { JxlDecoderDestroy(decoder) }
        var info = JxlBasicInfo()
        return head.withUnsafeBufferPointer { bytes in
            guard JxlDecoderSubscribeEvents(decoder, Int32(JXL_DEC_BASIC_INFO.rawValue)) == JXL_DEC_SUCCESS,
                  JxlDecoderSetInput(decoder, bytes.baseAddress, bytes.count) == JXL_DEC_SUCCESS else { return false }
            JxlDecoderCloseInput(decoder)
            guard JxlDecoderProcessInput(decoder) == JXL_DEC_BASIC_INFO,
                  JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else { return false }
            return info.have_animation != 0
        }
    }

    deinit {
        if let decoder { JxlDecoderDestroy(decoder) }
        if let runner { JxlThreadParallelRunnerDestroy(runner) }
        file.deallocate()
    }

    package func nextFrame() throws -> AnimationFrame? {
        guard let decoder, !finished else { return nil }
        var pixelFormat = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var milliseconds = 0
        while true {
            let status = JxlDecoderProcessInput(decoder)
            if status == JXL_DEC_FRAME {
                var header = JxlFrameHeader()
                guard JxlDecoderGetFrameHeader(decoder, &header) == JXL_DEC_SUCCESS else {
                    throw JXLDecoder.corrupt(path, "a frame's header cannot be read")
                }
                milliseconds = Int((Double(header.duration) * tick).rounded())
            } else if status == JXL_DEC_NEED_IMAGE_OUT_BUFFER {
                try JXLDecoder.decode(decoder, into: &pixels, as: &pixelFormat, path: path, what: "a frame")
            } else if status == JXL_DEC_FULL_IMAGE {
                return AnimationFrame(pixels: pixels, durationMilliseconds: milliseconds)
            } else if status == JXL_DEC_SUCCESS {
                finished = true
                return nil
            } else {
                throw JXLDecoder.failure(status, path)
            }
        }
    }
}
