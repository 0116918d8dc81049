// Prints the library's public declarations, one a line, sorted, from the compiler's symbol graphs (the folder given
// as the argument): FilterRecipe and the modules whose user-facing types it names. scripts/api-listing.sh runs it.
import Foundation

let modules = ["FilterRecipe", "FilterCore", "PNGCodec", "JPEGCodec", "ColourProfiles"]
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: APIListing SYMBOL-GRAPH-FOLDER\n".utf8))
    exit(2)
}
/// The parts of a symbol graph the listing reads.
struct SymbolGraph: Decodable {
    struct Symbol: Decodable {
        struct Fragment: Decodable { var spelling: String? }
        var accessLevel: String?
        var pathComponents: [String]?
        var declarationFragments: [Fragment]?
        struct Availability: Decodable {
            var isUnconditionallyDeprecated: Bool?
            var deprecated: Version?
        }
        struct Version: Decodable {}
        var availability: [Availability]?
        /// Marked `@available(*, deprecated…)`: listed with " [deprecated]" so removals can be told from
        /// deprecations (scripts/api-compat.sh).
        var isDeprecated: Bool {
            (availability ?? []).contains { $0.isUnconditionallyDeprecated == true || $0.deprecated != nil }
        }
    }
    var symbols: [Symbol]
}

var lines = Set<String>()
for module in modules {
    let url = URL(fileURLWithPath: CommandLine.arguments[1]).appendingPathComponent("\(module).symbols.json")
    guard let data = try? Data(contentsOf: url), let graph = try? JSONDecoder().decode(SymbolGraph.self, from: data) else {
        FileHandle.standardError.write(Data("APIListing: cannot read \(url.path)\n".utf8))
        exit(1)
    }
    for symbol in graph.symbols where symbol.accessLevel == "public" {
        let path = (symbol.pathComponents ?? []).joined(separator: ".")
        let declaration = (symbol.declarationFragments ?? []).compactMap(\.spelling).joined()
        lines.insert(path + "  " + declaration.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                     + (symbol.isDeprecated ? "  [deprecated]" : ""))
    }
}
print(lines.sorted().joined(separator: "\n"))
