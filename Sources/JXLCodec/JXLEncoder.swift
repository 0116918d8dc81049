import CJXL
import FilterCore
import Foundation

/// JPEG XL writer (libjxl) into an `OutputFile`: lossy (VarDCT, by quality) or lossless (modular), 8- or 16-bit,
/// grey or RGB, alpha kept, the profile embedded, else sRGB declared; or 32-bit floats (`floats`: linear light on
/// sRGB primaries, unclamped, declared as linear sRGB — an HDR render kept as it is); or 16-bit BT.2100 PQ on BT.2020
/// primaries (`pq`: an HDR render's PQ samples, declared by code points, PQ's whole range as the intensity target).
/// libjxl codes a whole picture, so rows are
/// gathered and encoded by `finish()`, which publishes the file; `abandon()` (or dropping the encoder unfinished)
/// removes it.
package final class JXLEncoder: WholePictureEncoder {
    package let output: OutputFile
    package let width: Int
    package let height: Int
    package let format: PixelFormat

    private let options: JXLWriteOptions
    private let icc: [UInt8]?
    private let metadata: OutputMetadata?
    /// Rows are 32-bit floats a sample (straight alpha), in `format`'s channels.
    private let floats: Bool
    /// Rows are BT.2100 PQ samples on BT.2020 primaries.
    private let pq: Bool
    package var gathered: GatheredPicture

    /// Every integer layout (8 or 16 bits, grey to RGBA).
    package static func accepts(_ format: PixelFormat) -> Bool { !format.isFloat }

    package init(output: OutputFile, width: Int, height: Int, format: PixelFormat,
                 options: JXLWriteOptions = .default, icc: [UInt8]? = nil, metadata: OutputMetadata? = nil,
                 floats: Bool = false, pq: Bool = false) throws {
        self.output = output
        self.floats = floats
        self.pq = pq
        self.metadata = metadata
        self.width = width
        self.height = height
        self.format = format
        self.options = options
        self.icc = icc
        func refuse(_ message: String) -> CodecError {
            output.abandon()
            return CodecError(kind: .invalidRequest, path: output.path, message: message)
        }
        do { try JXLLibrary.load(for: output.path) } catch {
            output.abandon()
            throw error
        }
        guard Self.accepts(format) else { throw refuse("JPEG XL output takes 8- or 16-bit rows, not \(format.rawValue)") }
        guard (1...(1 << 30)).contains(width), (1...(1 << 30)).contains(height) else { throw refuse("JPEG XL cannot hold \(width)×\(height)") }
        for (name, value, range) in [("quality", options.quality, 1...100), ("effort", options.effort, 1...9)] where !range.contains(value) {
            throw refuse("JPEG XL \(name) must be \(range.lowerBound)...\(range.upperBound), got \(value)")
        }
        // Rows are kept as they come: grey stays grey, 16-bit stays 16-bit, floats stay floats.
        gathered = GatheredPicture(width: width, height: height, channels: format.channels,
                                   sampleBytes: floats ? 4 : format.depth == 16 ? 2 : 1)
    }

    deinit { if !gathered.isPublished { output.abandon() } }

    /// The picture as a JPEG XL codestream.
    package func encode(_ gathered: GatheredPicture) throws -> [UInt8] {
        guard let encoder = JxlEncoderCreate(nil) else { throw CodecError(kind: .tooLarge, path: path, message: "out of memory encoding JPEG XL") }
        defer { JxlEncoderDestroy(encoder) }
        let runner = JxlThreadParallelRunnerCreate(nil, min(JxlThreadParallelRunnerDefaultNumWorkerThreads(), 4))
        defer { if let runner { JxlThreadParallelRunnerDestroy(runner) } }
        if let runner { _ = JxlEncoderSetParallelRunner(encoder, JxlThreadParallelRunner, runner) }
        let deep = format.depth == 16, alpha = format.hasAlpha, colours = format.channels - (alpha ? 1 : 0)
        var info = JxlBasicInfo()
        JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(width)
        info.ysize = UInt32(height)
        info.bits_per_sample = floats ? 32 : deep ? 16 : 8
        info.exponent_bits_per_sample = floats ? 8 : 0
        info.num_color_channels = UInt32(colours)
        info.uses_original_profile = options.lossless ? 1 : 0
        // PQ's whole range: libjxl scales its lossy (XYB) coding to the intensity target and clips light above it, and
        // a graded peak is not the brightest sample (a 1000 cd/m² target lost highlights of 3500 by a third).
        if pq { info.intensity_target = 10000 }
        if alpha {
            info.alpha_bits = info.bits_per_sample
            info.alpha_exponent_bits = info.exponent_bits_per_sample
            info.num_extra_channels = 1
        }
        try check(JxlEncoderSetBasicInfo(encoder, &info), "its header")
        if pq {
            var encoding = JxlColorEncoding()
            JxlColorEncodingSetToSRGB(&encoding, colours == 1 ? 1 : 0)
            encoding.primaries = JXL_PRIMARIES_2100
            encoding.transfer_function = JXL_TRANSFER_FUNCTION_PQ
            try check(JxlEncoderSetColorEncoding(encoder, &encoding), "its colour encoding")
        } else if floats {
            var linear = JxlColorEncoding()
            JxlColorEncodingSetToLinearSRGB(&linear, colours == 1 ? 1 : 0)
            try check(JxlEncoderSetColorEncoding(encoder, &linear), "its colour encoding")
        } else if let icc {
            try check(icc.withUnsafeBufferPointer { JxlEncoderSetICCProfile(encoder, $0.baseAddress, $0.count) }, "its ICC profile")
        } else {
            var srgb = JxlColorEncoding()
            JxlColorEncodingSetToSRGB(&srgb, colours == 1 ? 1 : 0)
            try check(JxlEncoderSetColorEncoding(encoder, &srgb), "its colour encoding")
        }
        try JXLEncoderSetup.addMetadata(metadata, to: encoder, check: check)
        guard let settings = JxlEncoderFrameSettingsCreate(encoder, nil) else { throw CodecError(kind: .tooLarge, path: path, message: "out of memory encoding JPEG XL") }
        try JXLEncoderSetup.apply(options, to: settings, check: check)
        var pixelFormat = JxlPixelFormat(num_channels: UInt32(format.channels),
                                         data_type: floats ? JXL_TYPE_FLOAT : deep ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8,
                                         endianness: JXL_NATIVE_ENDIAN, align: 0)
        try check(gathered.pixels.withUnsafeBytes { JxlEncoderAddImageFrame(settings, &pixelFormat, $0.baseAddress, $0.count) }, "its pixels")
        JxlEncoderCloseInput(encoder)
        var out = [UInt8](repeating: 0, count: max(1 << 16, gathered.pixels.count / 4))
        var written = 0
        while true {
            let (status, used): (JxlEncoderStatus, Int) = out.withUnsafeMutableBufferPointer { buffer in
                var next: UnsafeMutablePointer<UInt8>? = buffer.baseAddress! + written
                var available = buffer.count - written
                let status = JxlEncoderProcessOutput(encoder, &next, &available)
                return (status, buffer.count - written - available)
            }
            written += used
            if status == JXL_ENC_SUCCESS { return Array(out[0..<written]) }
            guard status == JXL_ENC_NEED_MORE_OUTPUT else { throw CodecError(kind: .io, path: path, message: "JPEG XL encoding failed") }
            out += [UInt8](repeating: 0, count: out.count)
        }
    }

    private func check(_ status: JxlEncoderStatus, _ what: String) throws {
        guard status == JXL_ENC_SUCCESS else {
            throw CodecError(kind: .io, path: path, message: "JPEG XL encoding failed setting \(what)")
        }
    }
}
