import Foundation

/// A decoder opened on a file: the header is read, rows stream top to bottom. Each format (PNG, JPEG) implements
/// it; the format registry picks one by the file's first bytes.
package protocol ImageDecoder: ImageRowSource {
    var path: String { get }
    /// "PNG", "JPEG".
    var formatName: String { get }
    var metadata: ImageMetadata { get }
    /// The layout the file stores (what outputs follow); `format` may differ when rows are converted on reading.
    var storedFormat: PixelFormat { get }
    /// Size before any decode-time scaling.
    var storedWidth: Int { get }
    var storedHeight: Int { get }
    /// The reductions the decoder can make while decoding, cheaper than decoding whole (JPEG: 2, 4, 8 in the
    /// DCT; WebP: 2, 4, 8 by libwebp's rescaler); none when it has none.
    var decodeReductions: DecodeReductions { get }
    /// Decodes at 1/`factor` of the stored size from now on (one of `decodeReductions`); before the first row only.
    func reduce(by factor: Int) throws
    /// Decodes at `width` × `height` (smaller than stored) from now on: what the plan chose, ⌈stored / f⌉ for a
    /// factor the decoder offers, any size for a rescaling decoder; before the first row only.
    func reduce(toWidth width: Int, height: Int) throws
    /// True when the file stores CMYK inks, which `format` gives converted to RGB without a profile.
    var storesInks: Bool { get }
    /// From now on rows are the file's inks, four bytes a pixel, 0 = no ink (`format` becomes `inkFormat`), for a
    /// conversion through the file's CMYK profile; before the first row only.
    func deliverInks() throws
    /// True when the file stores floating-point samples: `format` is rgba32f, linear light premultiplied (the
    /// file's values, unclamped), and `storedFormat` the 16-bit layout outputs follow unless asked for floats.
    var storesFloats: Bool { get }
    /// What was wrong with the file and let pass — damage below the fail-on level, metadata that could not be
    /// used — as messages naming the file; complete after the last row.
    var fileWarnings: [String] { get }
    /// Bytes the decoder itself holds while decoding (a progressive JPEG's coefficients), beyond the rows it
    /// delivers: part of a render's memory estimate.
    var decodingBytes: Double { get }
    /// What those bytes are, for a refusal ("coefficients (a progressive JPEG holds them all)").
    var decodingHolds: String { get }
}

extension ImageDecoder {
    /// Decodes the remaining rows into a new buffer (the whole image when nothing was read yet).
    package func readAll(ledger: TransferLedger = TransferLedger()) throws -> PixelBuffer {
        guard height > nextRow else {
            throw CodecError(kind: .invalidRequest, path: path, message: "every row was read already")
        }
        let buffer = PixelBuffer(width: width, height: height - nextRow, format: format, ledger: ledger)
        try readRows(into: try buffer.mutableHostBytes(), stride: buffer.rowStride, count: buffer.height)
        return buffer
    }

    package var decodeReductions: DecodeReductions { .none }
    package func reduce(by factor: Int) throws {
        throw CodecError(kind: .invalidRequest, path: path, message: "\(formatName) cannot reduce while decoding")
    }
    package func reduce(toWidth width: Int, height: Int) throws {
        let factor = (storedWidth + width - 1) / max(1, width)
        try reduce(by: factor)
        guard self.width == width, self.height == height else {
            throw CodecError(kind: .invalidRequest, path: path, message: "\(formatName) decodes at 1/\(factor) to "
                             + "\(self.width)×\(self.height), not \(width)×\(height)")
        }
    }
    package var storedFormat: PixelFormat { format }
    package var decodingHolds: String { "decoded pixels (the \(formatName) decoder holds its picture whole)" }
    package var storesInks: Bool { false }
    package var storesFloats: Bool { false }
    package func deliverInks() throws {
        throw CodecError(kind: .invalidRequest, path: path, message: "\(formatName) file has no CMYK inks")
    }
    /// The layout inks arrive in: four 8-bit samples a pixel (C, M, Y, K in the places of R, G, B, A).
    package static var inkFormat: PixelFormat { .rgba8 }
    package var storedWidth: Int { width }
    package var storedHeight: Int { height }
    package var fileWarnings: [String] { [] }
    package var decodingBytes: Double { 0 }
}

/// What a file says about its pixels beyond the pixels themselves.
package struct ImageMetadata: Sendable, Equatable {
    /// EXIF orientation, 1…8 (1 when absent or unreadable).
    package var orientation: Int
    /// The embedded ICC profile, if any.
    package var iccProfile: [UInt8]?
    /// PNG's colour chunks, read when there is no ICC profile: sRGB, gAMA (file gamma), cHRM (white x, y, then
    /// red, green, blue x, y).
    package var declaresSRGB = false
    package var gamma: Double?
    package var chromaticities: [Double]?
    /// Colour described by code points (ITU-T H.273: HEIF/AVIF's nclx box) when there is no ICC profile.
    package var codingPoints: ColourCodingPoints?
    /// For HDR files, the brightest light (cd/m²) the file declares (MaxCLL, else its mastering display's peak).
    package var peakLuminance: Double?
    /// The EXIF block (a TIFF structure) and XMP packet, as stored: carried to outputs only when asked
    /// (`MetadataPolicy`).
    package var exif: [UInt8]?
    package var xmp: [UInt8]?
    /// A JPEG's XMP as stored when it has an extension (`xmp` is then the two merged).
    package var extendedXMP: ExtendedXMP?

    package init(orientation: Int = 1, iccProfile: [UInt8]? = nil) {
        self.orientation = orientation
        self.iccProfile = iccProfile
    }
}

/// Colour as ITU-T H.273 code points: which primaries and which transfer curve the samples use (matrix and range
/// are the decoder's business: they map YCbCr to RGB before rows are delivered).
package struct ColourCodingPoints: Sendable, Equatable {
    package var primaries: Int
    package var transfer: Int

    package init(primaries: Int, transfer: Int) {
        self.primaries = primaries
        self.transfer = transfer
    }

    /// Whether the samples are sRGB as they are (BT.709 primaries, or unspecified, with the sRGB curve or an
    /// unspecified one): what HEIF and AVIF files without a colour box mean.
    package var isSRGB: Bool { [1, 2].contains(primaries) && [2, 13].contains(transfer) }

    /// Whether the curve is an HDR one (BT.2100 PQ or HLG).
    package var isHDR: Bool { transfer == 16 || transfer == 18 }
}

/// The factors a decoder can shrink by while decoding, and how its reduced pixels cover the original ones.
package struct DecodeReductions: Sendable, Equatable {
    package enum Method: Sendable, Equatable {
        /// Boxes of exactly f original pixels from the top-left corner, the last one partial (a JPEG's DCT scaling).
        case boxes
        /// The same boxes, averaged exactly from the full decode's pixels (a lossy WebP's rows as libwebp writes them).
        case decodedBoxes
        /// The whole image rescaled to any smaller size by area averaging (libwebp's rescaler): boxes of
        /// size / reduced size.
        case wholeRescale
        /// Reduced copies stored in the file (a TIFF pyramid's levels), each taken as the boxes of its factor
        /// (levels are made by averaging 2 × 2 pixels, level after level), sized as `levels` says.
        case levels
    }
    /// A stored reduced copy: 1/`factor` of the image, `width` × `height` (⌊ ⌋ or ⌈stored / factor⌉).
    package struct Level: Sendable, Equatable {
        package var factor: Int, width: Int, height: Int
        package init(factor: Int, width: Int, height: Int) {
            self.factor = factor
            self.width = width
            self.height = height
        }
    }
    /// The factors of `boxes`, `decodedBoxes` and `levels`.
    package var factors: [Int]
    /// The stored copies of `levels`, one for each factor.
    package var levels: [Level] = []
    package var method: Method
    /// Whether a `wholeRescale` decoder may rescale (to any size) for this image.
    package var rescales: Bool
    /// How the decoder reduces, for --explain ("in the JPEG DCT").
    package var how: String

    package init(factors: [Int], method: Method = .boxes, rescales: Bool = false, how: String) {
        self.factors = factors
        self.method = method
        self.rescales = rescales
        self.how = how
    }

    /// Stored copies (`levels`).
    package init(levels: [Level], how: String) {
        self.init(factors: levels.map(\.factor), method: .levels, how: how)
        self.levels = levels
    }

    package static let none = DecodeReductions(factors: [], how: "")
}

/// A decoder that reads from a file descriptor it owns: opening a path is the same for every such format.
package protocol DescriptorDecoder: ImageDecoder {
    init(descriptor fd: Int32, name: String, limits: DecodeLimits) throws
}

extension DescriptorDecoder {
    /// Opens `path` and decodes from it.
    package init(path: String, limits: DecodeLimits = DecodeLimits()) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CodecError(kind: .io, path: path, message: String(cString: strerror(errno))) }
        try self.init(descriptor: fd, name: path, limits: limits)
    }
}
