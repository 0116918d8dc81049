import Foundation

/// A folder URLs name files under. A name is refused when a component is empty, `.`, `..` or hidden, and when the
/// file it resolves to (links followed) lies outside the folder.
struct SourceRoot: Sendable {
    let root: String

    /// `option` is the flag that names the folder, for the message when it cannot be opened.
    init(_ folder: String, option: String) throws {
        guard let real = realpath(folder, nil) else {
            throw ServeError(.internalServerError, "the \(option == "--presets" ? "presets" : "sources") folder \(folder) cannot be "
                             + "opened (\(String(cString: strerror(errno)))): give \(option) DIR (the defaults, recipes and "
                             + "samples, are the repository's)")
        }
        root = String(cString: real)
        free(real)
    }

    /// The file's real path, or nil.
    func file(_ components: [Substring]) -> String? {
        guard !components.isEmpty, components.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("\0") }) else {
            return nil
        }
        let joined = root + "/" + components.joined(separator: "/")
        guard let real = realpath(joined, nil) else { return nil }
        defer { free(real) }
        let path = String(cString: real)
        var info = stat()
        guard path.hasPrefix(root + "/"), stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return path
    }

    /// The names of the presets in the folder (`NAME.json`, schema.json and hidden files left out).
    var presetNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .filter { $0.hasSuffix(".json") && $0 != "schema.json" && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// `message` with the folder's own path taken out, so no error shows where the server keeps its files.
    func redacted(_ message: String) -> String { message.replacingOccurrences(of: root + "/", with: "") }
}
