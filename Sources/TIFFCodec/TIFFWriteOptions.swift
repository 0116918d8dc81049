/// How TIFF outputs are written.
public struct TIFFWriteOptions: Sendable, Equatable {
    /// Lossless compressions; deflate and LZW with the horizontal predictor.
    public enum Compression: String, CaseIterable, Sendable {
        case none, deflate, lzw
    }

    /// Default deflate: lossless and about half the size of none on photos.
    public var compression: Compression

    public init(compression: Compression = .deflate) { self.compression = compression }

    public static let `default` = TIFFWriteOptions()
}
