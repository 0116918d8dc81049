/// Which damage in an input file stops its decoding — libvips's `fail-on` levels. Damage below the level is let
/// pass: the decoder fills what is missing (grey, for JPEG) and the render's report carries a warning naming the
/// file and the damage.
public enum FailOn: String, CaseIterable, Sendable {
    /// Decode what is there, whatever is damaged.
    case never = "none"
    /// Stop on a file that ends inside its image data.
    case truncated
    /// Stop on truncation and on corrupt data (codes that decode to nothing, markers inside the data, an
    /// impossible progression): the default, so a damaged photo never becomes a quietly wrong output.
    case error
    /// Stop on any irregularity the codec reports, harmless ones included (stray bytes between segments, a
    /// missing end marker, an unknown JFIF revision).
    case warning

    /// The default: `.error`.
    public static let `default` = FailOn.error
}

/// The limits a decoder works within, checked before allocating and while decoding.
package struct DecodeLimits: Sendable {
    package var maxPixels: Int
    package var maxMemory: Int
    package var failOn: FailOn
    /// Most samples the decoder may visit (a progressive JPEG visits each block once a scan); nil for no limit.
    package var maxWork: Double?

    /// Scans a JPEG may have. Encoders write 1 (baseline) to about a dozen (jpegtran, mozjpeg, cameras); a valid
    /// file could in theory refine each of 64 coefficients of each component bit by bit (a few thousand), which
    /// no encoder does. 500 bounds a hostile file's decode to a few seconds at 8192² (libjpeg-turbo's TurboJPEG
    /// API suggests the same figure for its scan limit).
    package static let maxScans = 500

    /// The page of a multi-page input to read, from 0 (TIFF; a format without pages has only page 0).
    package var page: Int

    /// The fidelity the render keeps, for decoders whose shrink on load has a cheaper, coarser way (a baseline JPEG's
    /// chroma at 1/8 from each block's DC at `.fast`; libjpeg's own otherwise).
    package var fidelity: Fidelity = .high

    package init(maxPixels: Int = 1 << 28, maxMemory: Int = 1 << 30, failOn: FailOn = .default, maxWork: Double? = nil,
                 page: Int = 0) {
        self.maxPixels = maxPixels
        self.maxMemory = maxMemory
        self.failOn = failOn
        self.maxWork = maxWork
        self.page = page
    }
}
