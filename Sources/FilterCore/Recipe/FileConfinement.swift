import Foundation

/// The folders a recipe's file parameters may name files in (`Recipe.fileFolders`). A server confines recipes so
/// that a preset or a posted recipe cannot read any other file: the name must be relative, and the file it resolves
/// to — every link followed — must be a regular file inside one of the folders (also resolved), so neither `..` nor a link
/// inside the folder pointing out can reach past it.
package struct FileConfinement: Sendable {
    /// The folders, as given.
    package let folders: [String]

    package init(folders: [String]) { self.folders = folders }

    /// The real path of the regular file `name` names, relative to `base` when `base` lies in a folder, else to the
    /// first folder; a `PlanError` naming the rule otherwise.
    package func file(_ name: String, base: String?) throws -> String {
        let roots = folders.compactMap(Self.realPath)
        guard let first = roots.first else {
            throw PlanError("no file can be read here: the folders files are read from do not exist")
        }
        guard !name.hasPrefix("/") else {
            throw PlanError("\"\(name)\" is an absolute path; here a file is named relative to the presets folder")
        }
        guard !name.isEmpty, !name.contains("\0") else { throw PlanError("a file name is empty") }
        let start = base.flatMap(Self.realPath).flatMap { real in roots.contains(where: { Self.inside(real, $0) || real == $0 }) ? real : nil } ?? first
        guard let real = Self.realPath((start as NSString).appendingPathComponent(name)) else {
            throw PlanError("cannot read \(name): no such file in the presets folder")
        }
        var info = stat()
        guard roots.contains(where: { Self.inside(real, $0) }), stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw PlanError("\"\(name)\" lies outside the folders files are read from (the presets folder)")
        }
        return real
    }

    static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    static func inside(_ path: String, _ root: String) -> Bool { path.hasPrefix(root == "/" ? "/" : root + "/") }
}
