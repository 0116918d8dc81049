import CLazyLibraries
import FilterCore

/// libtiff, loaded when a process first opens a TIFF (`CLazyLibraries`): a process that reads and writes none maps
/// neither it nor its codecs' libraries, and runs where libtiff is missing.
enum TIFFLibrary {
    /// Loads libtiff before its first call; where it cannot be loaded, an error about `path` saying so.
    static func load(for path: String) throws {
        guard fr_lazy_load_tiff() == 0 else { return }
        throw CodecError(kind: .unsupported, path: path, message: "TIFF needs libtiff 4.5 or later, which cannot be "
            + "loaded (\(String(cString: fr_lazy_tiff_error()))); on Debian: apt install libtiff6")
    }
}
