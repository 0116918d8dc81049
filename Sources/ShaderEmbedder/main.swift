import Foundation

// Usage: ShaderEmbedder SHADER_DIR OUTPUT.swift — writes every .comp and .glsl file under SHADER_DIR as a Swift
// dictionary keyed by its path relative to SHADER_DIR.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write("usage: ShaderEmbedder SHADER_DIR OUTPUT\n".data(using: .utf8)!)
    exit(2)
}
let root = URL(fileURLWithPath: arguments[1])
let names = (FileManager.default.subpaths(atPath: root.path) ?? [])
    .filter { $0.hasSuffix(".comp") || $0.hasSuffix(".glsl") }
    .sorted()
var text = "// Generated at build time from Shaders/ by the EmbedShaders plugin. Do not edit.\n"
text += "enum ShaderSources {\n    static let files: [String: String] = [\n"
for name in names {
    let source = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    precondition(!source.contains("\"\"\"####"), "\(name) contains the embedding delimiter")
    text += "        \"\(name)\": ####\"\"\"\n\(source)\n\"\"\"####,\n"
}
text += "    ]\n}\n"
let output = URL(fileURLWithPath: arguments[2])
// Rewrite only on change, so an unchanged shader tree does not recompile the backend.
if (try? String(contentsOf: output, encoding: .utf8)) != text {
    try text.write(to: output, atomically: true, encoding: .utf8)
}
