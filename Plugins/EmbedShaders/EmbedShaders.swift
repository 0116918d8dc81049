import Foundation
import PackagePlugin

/// Embeds the GLSL sources of `Shaders/` into the Vulkan backend at build time, so the binaries work from any
/// directory and never read the source tree at run time.
@main
struct EmbedShaders: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL.appendingPathComponent("Shaders")
        let files = (FileManager.default.subpaths(atPath: root.path) ?? [])
            .filter { $0.hasSuffix(".comp") || $0.hasSuffix(".glsl") }
            .sorted()
            .map { root.appendingPathComponent($0) }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("ShaderSources.swift")
        return [.buildCommand(displayName: "Embedding \(files.count) shader sources",
                              executable: try context.tool(named: "ShaderEmbedder").url,
                              arguments: [root.path, output.path],
                              inputFiles: files, outputFiles: [output])]
    }
}
