import Synchronization

/// A setting a message points its reader to, spelt for the face they use: a Swift caller reads the library's names
/// (`Renderer.Options.maxMemory`), a shell user the command line's (`--max-memory`). Messages are built once, deep
/// in a codec or the planner, so they interpolate one of these rather than either spelling.
package enum SettingName: CustomStringConvertible, Sendable {
    case maxPixels, maxMemory, maxWork, maxWorkNone, maxRecipeBytes
    case failOn(FailOn)
    case replaceExisting
    case background
    case outputProfileSRGB
    case noAutorotate
    case optimizeOff
    case backendVulkan
    case fileFormat
    case avifBitDepth
    case depth(Int)
    case keepMetadata
    case page
    /// Binding a file to a recipe input.
    case input(String)

    /// Which spelling messages use. The library's by default; `filterrun` switches once at start.
    package enum Face: UInt8 { case library, commandLine }
    private static let current = Atomic<UInt8>(Face.library.rawValue)
    package static var face: Face {
        get { Face(rawValue: current.load(ordering: .relaxed)) ?? .library }
        set { current.store(newValue.rawValue, ordering: .relaxed) }
    }

    package var description: String { Self.face == .commandLine ? commandLine : library }

    package var commandLine: String {
        switch self {
        case .maxPixels: return "--max-pixels"
        case .maxMemory: return "--max-memory"
        case .maxWork: return "--max-work"
        case .maxWorkNone: return "--max-work none"
        case .maxRecipeBytes: return "--max-recipe-bytes"
        case .failOn(let level): return "--fail-on \(level.rawValue)"
        case .replaceExisting: return "--force"
        case .background: return "--background"
        case .outputProfileSRGB: return "--profile srgb"
        case .noAutorotate: return "--no-autorotate"
        case .optimizeOff: return "--no-optimize"
        case .backendVulkan: return "--backend vulkan"
        case .fileFormat: return "--format"
        case .avifBitDepth: return "--bit-depth 10 or 12"
        case .depth(let bits): return "--depth \(bits)"
        case .keepMetadata: return "--keep-metadata"
        case .page: return "--page"
        case .input(let name): return "--input \(name)=PATH"
        }
    }

    package var library: String {
        switch self {
        case .maxPixels: return "Renderer.Options.maxPixels"
        case .maxMemory: return "Renderer.Options.maxMemory"
        case .maxWork: return "Renderer.Options.maxWork"
        case .maxWorkNone: return "Renderer.Options.maxWork = nil"
        case .maxRecipeBytes: return "RecipeLimits.maxBytes"
        case .failOn(let level): return "Renderer.Options.failOn = .\(level == .never ? "never" : level.rawValue)"
        case .replaceExisting: return "Renderer.Options.replaceExisting"
        case .background: return "JPEGWriteOptions.background"
        case .outputProfileSRGB: return "Renderer.Options.outputProfile = .sRGB"
        case .noAutorotate: return "Renderer.Options.autorotate = false"
        case .optimizeOff: return "Renderer.Options.optimize = false"
        case .backendVulkan: return "Renderer(backend: .vulkan)"
        case .fileFormat: return "Renderer.Options.fileFormat"
        case .avifBitDepth: return "AVIFWriteOptions.bitDepth = 10 or 12"
        case .depth(let bits): return "Renderer.Options.depth = \(bits)"
        case .keepMetadata: return "Renderer.Options.metadata"
        case .page: return "Renderer.Options.page"
        case .input(let name): return "a file or image bound to \"\(name)\" among the render's inputs"
        }
    }
}
