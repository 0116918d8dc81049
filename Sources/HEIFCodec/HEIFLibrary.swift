import CHEIF

/// libheif, started once per process (from libheif 1.14 its codecs may be plugins, loaded by `heif_init`).
enum HEIFLibrary {
    static let started: Void = { _ = heif_init(nil) }()

    /// libheif's version as major × 100 + minor (1.15 → 115).
    static var version: Int { Int(heif_get_version_number_major()) * 100 + Int(heif_get_version_number_minor()) }

    /// Whether AV1 at 10 bits can be encoded: libheif before 1.16 asks libaom for profile 2 at every depth over 8
    /// bits, where 10 bits allows only 4:2:2, and libaom aborts the process (libheif issue 788, fixed in 1.16).
    static var encodesTenBitAV1: Bool { version >= 116 }
}
