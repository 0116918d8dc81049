import CLazyLibraries
import FilterCore

/// libjxl and its thread pool, loaded once per process on first use (`CLazyLibraries`).
enum JXLLibrary {
    private static let loaded = fr_lazy_load_jxl() != 0

    /// Loads libjxl before its first call; where it cannot be loaded, an error about `path` saying so.
    static func load(for path: String) throws {
        guard loaded else {
            throw CodecError(kind: .unsupported, path: path, message: "JPEG XL needs libjxl, which cannot be loaded "
                + "(\(String(cString: fr_lazy_jxl_error()))); on Debian: apt install the libjxl runtime (libjxl0.7 on Debian 12)")
        }
    }
}
