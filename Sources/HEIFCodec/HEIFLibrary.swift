import CHEIF
import CHEVCDecoder
import CLazyLibraries
import FilterCore
import Foundation

/// libheif, loaded and started once per process on first use (`CLazyLibraries`; from libheif 1.14 its codecs may
/// be plugins, loaded by `heif_init`). HEVC is decoded by `CHEVCDecoder`'s libde265 decoder with a worker thread
/// per core where libde265 loads (libheif's own starts one), by libheif's otherwise.
package enum HEIFLibrary {
    private static let loaded: Bool = {
        guard fr_lazy_load_heif() != 0 else { return false }
        _ = heif_init(nil)
        _ = fr_hevc_register_decoder(Int32(clamping: ProcessInfo.processInfo.activeProcessorCount))
        return true
    }()

    /// Loads libheif before its first call; where it cannot be loaded, an error about `path` saying so.
    static func load(for path: String, format: String) throws {
        guard loaded else {
            throw CodecError(kind: .unsupported, path: path, message: "\(format) needs libheif, which cannot be loaded "
                + "(\(String(cString: fr_lazy_heif_error()))); on Debian: apt install libheif1")
        }
    }

    /// HEVC pictures our decoder (`CHEVCDecoder`) has decoded in this process: tests check that it is the one used.
    package static var hevcPicturesDecoded: Int { Int(fr_hevc_images_decoded()) }

    /// libheif's version as major × 100 + minor (1.15 → 115); called once loaded.
    static var version: Int { Int(heif_get_version_number_major()) * 100 + Int(heif_get_version_number_minor()) }

    /// Whether AV1 at 10 bits can be encoded: libheif before 1.16 asks libaom for profile 2 at every depth over 8
    /// bits, where 10 bits allows only 4:2:2, and libaom aborts the process (libheif issue 788, fixed in 1.16).
    static var encodesTenBitAV1: Bool { version >= 116 }
}
