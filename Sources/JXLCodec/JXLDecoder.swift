import CJXL
import FilterCore
import Foundation

/// JPEG XL reader (libjxl): lossy (VarDCT/XYB) and lossless (modular), 8- to 16-bit integer samples, grey or
/// RGB, with or without alpha (straight; premultiplied alpha is made straight by libjxl), JPEG recompressions,
/// and an animation's first frame. The colour of the decoded pixels comes as an ICC profile (libjxl writes one for
/// enum-coded spaces too, sRGB skipped as sRGB); the orientation is kept in `metadata` so the engine applies it
/// like a JPEG's. Float (HDR) samples are read as floats, unclamped like a float TIFF's: an XYB-coded image is
/// asked of libjxl in linear sRGB, a losslessly coded one comes in its own space with its profile. libjxl decodes
/// whole, so the decoder holds the file and the picture, refused beyond the limits before decoding.
package final class JXLDecoder: DescriptorDecoder {
    package let path: String
    package let formatName = "JPEG XL"
    package let width: Int
    package let height: Int
    package let format: PixelFormat
    package let metadata: ImageMetadata
    package let storesFloats: Bool
    /// For floats: the file's layout at 16 bits, what outputs follow.
    package var storedFormat: PixelFormat { floatLayout ?? format }
    private let floatLayout: PixelFormat?
    /// Float samples coded in XYB, asked of libjxl in linear sRGB.
    private let floatsInLinearSRGB: Bool
    package let isAnimated: Bool
    package var nextRow: Int { held.nextRow }
    package var fileWarnings: [String] { isAnimated ? [CodecError.firstFrameNote(path, frames: nil)] : [] }
    /// The file, libjxl's image and ours (the figure the limits are checked with).
    package let decodingBytes: Double

    private let file: [UInt8]
    private var held = HeldPicture()

    /// Reads from `fd` (owned and closed by the decoder, at its start); `name` is what messages call it. The
    /// header and colour description are read here; pixels on the first row asked for.
    package init(descriptor fd: Int32, name path: String, limits: DecodeLimits) throws {
        self.path = path
        file = try WholePicture.readFile(fd, name: path, limit: limits.maxMemory)
        try JXLLibrary.load(for: path)
        guard let decoder = JxlDecoderCreate(nil) else { throw CodecError(kind: .tooLarge, path: path, message: "out of memory opening the JPEG XL file") }
        defer { JxlDecoderDestroy(decoder) }
        var info = JxlBasicInfo()
        var icc: [UInt8]?
        var encoded: JxlColorEncoding?
        try file.withUnsafeBufferPointer { bytes in
            guard JxlDecoderSubscribeEvents(decoder, Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue)) == JXL_DEC_SUCCESS,
                  JxlDecoderSetKeepOrientation(decoder, 1) == JXL_DEC_SUCCESS,
                  JxlDecoderSetInput(decoder, bytes.baseAddress, bytes.count) == JXL_DEC_SUCCESS else {
                throw CodecError(kind: .unsupported, path: path, message: "the JPEG XL library refused its settings")
            }
            JxlDecoderCloseInput(decoder)
            while true {
                let status = JxlDecoderProcessInput(decoder)
                if status == JXL_DEC_BASIC_INFO {
                    guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else { throw Self.corrupt(path, "its header cannot be read") }
                } else if status == JXL_DEC_COLOR_ENCODING {
                    icc = Self.pixelsProfile(decoder)
                    var encoding = JxlColorEncoding()
                    if JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == JXL_DEC_SUCCESS {
                        encoded = encoding
                    }
                    return
                } else {
                    throw Self.failure(status, path)
                }
            }
        }
        width = Int(info.xsize)
        height = Int(info.ysize)
        let deep = info.bits_per_sample > 8, alpha = info.alpha_bits > 0
        let channels = Int(info.num_color_channels) + (alpha ? 1 : 0)
        storesFloats = info.exponent_bits_per_sample > 0
        floatsInLinearSRGB = storesFloats && info.uses_original_profile == 0
        floatLayout = storesFloats ? PixelFormat.integer(channels: channels, depth: 16) : nil
        format = storesFloats ? .rgba32f : PixelFormat.integer(channels: channels, depth: deep ? 16 : 8) ?? .rgba8
        // Linear sRGB needs no profile; other floats keep the one that describes them.
        if floatsInLinearSRGB { icc = nil }
        isAnimated = info.have_animation != 0
        // BT.2100 PQ and HLG (whose curves an ICC profile cannot carry) by their code points, which JPEG XL's
        // enumerations share with H.273, as an HEIF's nclx; the intensity target is the graded peak (libjxl's
        // default for PQ, 10 000 cd/m², says none was given).
        var points: ColourCodingPoints?
        if !storesFloats, let encoded, encoded.color_space == JXL_COLOR_SPACE_RGB || encoded.color_space == JXL_COLOR_SPACE_GRAY,
           encoded.transfer_function == JXL_TRANSFER_FUNCTION_PQ || encoded.transfer_function == JXL_TRANSFER_FUNCTION_HLG {
            points = ColourCodingPoints(primaries: Int(encoded.primaries.rawValue), transfer: Int(encoded.transfer_function.rawValue))
            icc = nil
        }
        var found = ImageMetadata(orientation: (1...8).contains(Int(info.orientation.rawValue)) ? Int(info.orientation.rawValue) : 1,
                                  iccProfile: icc)
        found.codingPoints = points
        if points?.transfer == 16, info.intensity_target > 0, info.intensity_target < 10000 {
            found.peakLuminance = Double(info.intensity_target)
        }
        (found.exif, found.xmp) = file.withUnsafeBufferPointer { Self.metadataBoxes($0) }
        metadata = found
        // Floats: libjxl's samples (4 bytes each) and the RGBA floats made from them.
        let fileBytes = file.count, held = storesFloats ? 16 + channels * 4 : format.bytesPerPixel
        // In floating point: the size is not yet checked, and the product could overflow an Int.
        let holding = { (pixels: Double) in pixels * Double(held * 2) + Double(fileBytes) }
        decodingBytes = holding(Double(width) * Double(height))
        try limits.checkWhole(path, format: "JPEG XL", width: width, height: height) { holding(Double($0)) }
    }

    package func readRows(into destination: UnsafeMutableRawPointer, stride: Int, count: Int) throws {
        _ = try held.read(path, height: height, rowBytes: width * format.bytesPerPixel, into: destination,
                          stride: stride, count: count, decode: decode)
    }

    /// The first frame, decoded whole on libjxl's worker threads, samples as stored (native-endian 16-bit words).
    private func decode() throws -> [UInt8] {
        guard let decoder = JxlDecoderCreate(nil) else { throw CodecError(kind: .tooLarge, path: path, message: "out of memory decoding the JPEG XL") }
        defer { JxlDecoderDestroy(decoder) }
        let runner = JxlThreadParallelRunnerCreate(nil, min(JxlThreadParallelRunnerDefaultNumWorkerThreads(), 4))
        defer { if let runner { JxlThreadParallelRunnerDestroy(runner) } }
        let channels = floatLayout?.channels ?? format.channels
        var pixelFormat = JxlPixelFormat(num_channels: UInt32(channels),
                                         data_type: storesFloats ? JXL_TYPE_FLOAT : format.depth == 16 ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8,
                                         endianness: JXL_NATIVE_ENDIAN, align: 0)
        var out = [UInt8](repeating: 0, count: width * height * (storesFloats ? channels * 4 : format.bytesPerPixel))
        let events = JXL_DEC_FULL_IMAGE.rawValue | (floatsInLinearSRGB ? JXL_DEC_COLOR_ENCODING.rawValue : 0)
        try file.withUnsafeBufferPointer { bytes in
            guard JxlDecoderSubscribeEvents(decoder, Int32(events)) == JXL_DEC_SUCCESS,
                  JxlDecoderSetKeepOrientation(decoder, 1) == JXL_DEC_SUCCESS,
                  JxlDecoderSetUnpremultiplyAlpha(decoder, 1) == JXL_DEC_SUCCESS,
                  runner.map({ JxlDecoderSetParallelRunner(decoder, JxlThreadParallelRunner, $0) == JXL_DEC_SUCCESS }) ?? true,
                  JxlDecoderSetInput(decoder, bytes.baseAddress, bytes.count) == JXL_DEC_SUCCESS else {
                throw CodecError(kind: .unsupported, path: path, message: "the JPEG XL library refused its settings")
            }
            JxlDecoderCloseInput(decoder)
            while true {
                let status = JxlDecoderProcessInput(decoder)
                if status == JXL_DEC_NEED_IMAGE_OUT_BUFFER {
                    try Self.decode(decoder, into: &out, as: &pixelFormat, path: path, what: "its image")
                } else if status == JXL_DEC_COLOR_ENCODING {
                    var linear = JxlColorEncoding()
                    JxlColorEncodingSetToLinearSRGB(&linear, channels <= 2 ? 1 : 0)
                    guard JxlDecoderSetPreferredColorProfile(decoder, &linear) == JXL_DEC_SUCCESS else {
                        throw CodecError(kind: .unsupported, path: path, message: "the JPEG XL library cannot give its float samples in linear sRGB")
                    }
                } else if status == JXL_DEC_FULL_IMAGE {
                    return  // the first frame (an animation's later frames are not read)
                } else {
                    throw Self.failure(status, path)
                }
            }
        }
        guard storesFloats else { return out }
        return FloatSamples.working(out, bits: 32, samples: channels, hasAlpha: channels == 2 || channels == 4, associated: false,
                                   minIsWhite: false, count: width * height)
    }

    /// The container's Exif box (its TIFF structure, after the 4-byte offset to it) and XMP box ("xml "), Brotli-
    /// compressed ones ("brob") decompressed, each up to 16 MiB; nil for what is absent or cannot be read (metadata
    /// never stops the pixels).
    static func metadataBoxes(_ bytes: UnsafeBufferPointer<UInt8>) -> (exif: [UInt8]?, xmp: [UInt8]?) {
        guard let decoder = JxlDecoderCreate(nil) else { return (nil, nil) }
        defer { JxlDecoderDestroy(decoder) }
        guard JxlDecoderSubscribeEvents(decoder, Int32(JXL_DEC_BOX.rawValue)) == JXL_DEC_SUCCESS,
              JxlDecoderSetDecompressBoxes(decoder, 1) == JXL_DEC_SUCCESS,
              JxlDecoderSetInput(decoder, bytes.baseAddress, bytes.count) == JXL_DEC_SUCCESS else { return (nil, nil) }
        JxlDecoderCloseInput(decoder)
        let limit = 16 << 20
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        var reading: String?, used = 0
        var exif: [UInt8]?, xmp: [UInt8]?
        func finish() {
            guard let type = reading else { return }
            let filled = buffer.count - JxlDecoderReleaseBoxBuffer(decoder)
            let content = Array(buffer.prefix(filled))
            if type == "Exif" {
                exif = Exif.tiffStructure(inPayload: content)
            } else if type == "xml " {
                xmp = content
            }
            reading = nil
        }
        while true {
            let status = JxlDecoderProcessInput(decoder)
            if status == JXL_DEC_BOX {
                finish()
                var type = (CChar(0), CChar(0), CChar(0), CChar(0))
                guard JxlDecoderGetBoxType(decoder, &type, 1) == JXL_DEC_SUCCESS else { break }
                let name = String(decoding: [type.0, type.1, type.2, type.3].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                guard (name == "Exif" && exif == nil) || (name == "xml " && xmp == nil) else { continue }
                used = 0
                guard JxlDecoderSetBoxBuffer(decoder, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), buffer.count) == JXL_DEC_SUCCESS else { break }
                reading = name
            } else if status == JXL_DEC_BOX_NEED_MORE_OUTPUT, reading != nil {
                // The buffer is full: a larger one continues where it stopped.
                used = buffer.count - JxlDecoderReleaseBoxBuffer(decoder)
                guard buffer.count * 2 <= limit else { reading = nil; break }
                let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 1)
                larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer.prefix(used)))
                buffer.deallocate()
                buffer = larger
                guard JxlDecoderSetBoxBuffer(decoder, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + used, buffer.count - used) == JXL_DEC_SUCCESS else { break }
            } else {
                if status == JXL_DEC_SUCCESS { finish() }
                break
            }
        }
        return (exif, xmp)
    }

    /// The ICC profile of the pixels libjxl gives (at its colour-encoding event); nil when it has none to give.
    static func pixelsProfile(_ decoder: OpaquePointer) -> [UInt8]? {
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS, size > 0 else { return nil }
        var profile = [UInt8](repeating: 0, count: size)
        guard JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &profile, size) == JXL_DEC_SUCCESS else { return nil }
        return profile
    }

    /// Hands libjxl `out` for the picture it is about to decode (`what`, for messages), refusing a size other than
    /// `out`'s (the header's).
    static func decode(_ decoder: OpaquePointer, into out: inout [UInt8], as format: inout JxlPixelFormat, path: String,
                       what: String) throws {
        var size = 0
        guard JxlDecoderImageOutBufferSize(decoder, &format, &size) == JXL_DEC_SUCCESS, size == out.count else {
            throw corrupt(path, "\(what) is not the size its header states")
        }
        let set = out.withUnsafeMutableBytes { JxlDecoderSetImageOutBuffer(decoder, &format, $0.baseAddress, $0.count) }
        guard set == JXL_DEC_SUCCESS else { throw corrupt(path, "\(what) cannot be decoded") }
    }

    static func corrupt(_ path: String, _ what: String) -> CodecError {
        CodecError(kind: .corrupt, path: path, message: "corrupt JPEG XL: \(what)")
    }

    /// A status the decoder stopped at: input that ended early, or damage.
    static func failure(_ status: JxlDecoderStatus, _ path: String) -> CodecError {
        status == JXL_DEC_NEED_MORE_INPUT
            ? CodecError(kind: .corrupt, path: path, message: "truncated: the file ends inside its JPEG XL data")
            : corrupt(path, status == JXL_DEC_SUCCESS ? "it ends before its image" : "its data cannot be decoded")
    }
}
