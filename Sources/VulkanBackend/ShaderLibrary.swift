import Foundation

/// The GLSL sources of Shaders/, embedded at build time, with `#include "x"` lines replaced by Shaders/include/x so
/// every compiled source is self-contained (and its hash covers everything it uses).
enum ShaderLibrary {
    /// The expanded source of Shaders/`name`.comp.
    static func source(_ name: String) -> String {
        guard let text = ShaderSources.files["\(name).comp"] else { preconditionFailure("no shader \(name).comp") }
        return expand(text)
    }

    static func expand(_ text: String) -> String {
        var lines = [Substring]()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("#include \"") else { lines.append(line); continue }
            let name = trimmed.dropFirst("#include \"".count).prefix { $0 != "\"" }
            guard let included = ShaderSources.files["include/\(name)"] else {
                preconditionFailure("no shader include \(name)")
            }
            lines.append(Substring(included))
        }
        return lines.joined(separator: "\n")
    }
}
