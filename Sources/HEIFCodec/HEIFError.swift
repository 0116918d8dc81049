import CHEIF
import FilterCore
import Foundation

/// libheif's errors as the engine's: damage is `.corrupt`, a codec libheif was built without is `.unsupported`
/// with the package that provides it, sizes over libheif's bounds are `.tooLarge`.
enum HEIFError {
    static func codecError(_ error: heif_error, path: String, doing what: String) -> CodecError {
        let detail = error.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
            ?? "libheif error \(error.code.rawValue)"
        switch error.code {
        case heif_error_Unsupported_feature where error.subcode == heif_suberror_Unsupported_codec:
            return CodecError(kind: .unsupported, path: path, message: "this libheif has no decoder for the file's codec "
                + "(\(detail)); HEIC needs libheif built with libde265 (Debian 12: libheif1; later: libheif-plugin-libde265), "
                + "AVIF with dav1d or libaom (libheif-plugin-dav1d)")
        case heif_error_Unsupported_feature, heif_error_Unsupported_filetype:
            return CodecError(kind: .unsupported, path: path, message: "a HEIF feature libheif does not \(what): \(detail)")
        case heif_error_Memory_allocation_error where error.subcode == heif_suberror_Security_limit_exceeded && what == "decode":
            // Sizes were checked on reading; decoding meets this only where a picture outgrows the image it makes.
            return CodecError(kind: .corrupt, path: path, message: "corrupt HEIF: it holds a picture larger than its image (\(detail))")
        case heif_error_Memory_allocation_error:
            return CodecError(kind: .tooLarge, path: path, message: "cannot \(what) the HEIF image: \(detail)")
        case heif_error_Input_does_not_exist:
            return CodecError(kind: .io, path: path, message: detail)
        default:
            return CodecError(kind: .corrupt, path: path, message: "corrupt HEIF (libheif cannot \(what) it: \(detail))")
        }
    }
}
