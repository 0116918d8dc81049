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
        var names = [String]()
        // The folder's presets and those of its subfolders, two levels down, as `group:name`.
        func list(_ folder: String, _ prefix: [String]) {
            for entry in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() where !entry.hasPrefix(".") {
                let path = folder + "/" + entry
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
                if isFolder.boolValue {
                    if prefix.count < 2, Self.isPresetPart(Substring(entry)) { list(path, prefix + [entry]) }
                } else if entry.hasSuffix(".json"), entry != "schema.json", Self.isPresetPart(entry.dropLast(5)) {
                    names.append((prefix + [String(entry.dropLast(5))]).joined(separator: ":"))
                }
            }
        }
        list(root, [])
        return names.sorted()
    }

    /// A preset's file: `name.json`, or for `group:name` (a preset in a subfolder, up to two levels deep)
    /// `group/name.json`; each part letters, digits, `-` and `_`. Nil for another spelling or a missing file.
    func presetFile(_ name: String) -> String? {
        let parts = name.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy(Self.isPresetPart) else { return nil }
        return file(parts.dropLast() + [parts.last! + ".json"])
    }

    static func isPresetPart(_ part: Substring) -> Bool {
        !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }

    /// `message` with the folder's own path taken out, so no error shows where the server keeps its files.
    func redacted(_ message: String) -> String { message.replacingOccurrences(of: root + "/", with: "") }
}
