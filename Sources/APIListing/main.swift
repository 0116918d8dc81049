// Prints the library's public declarations, one a line, sorted, from the compiler's symbol graphs (the folder given
// as the argument): FilterRecipe and the modules whose user-facing types it names. scripts/api-listing.sh runs it.
import Foundation

let modules = ["FilterRecipe", "FilterCore", "PNGCodec", "JPEGCodec", "ColourProfiles"]
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: APIListing SYMBOL-GRAPH-FOLDER\n".utf8))
    exit(2)
}
var lines = Set<String>()
for module in modules {
    let url = URL(fileURLWithPath: CommandLine.arguments[1]).appendingPathComponent("\(module).symbols.json")
    guard let data = try? Data(contentsOf: url),
          let graph = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
          let symbols = graph["symbols"] as? [[String: Any]] else {
        FileHandle.standardError.write(Data("APIListing: cannot read \(url.path)\n".utf8))
        exit(1)
    }
    for symbol in symbols where symbol["accessLevel"] as? String == "public" {
        let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
        let fragments = symbol["declarationFragments"] as? [[String: Any]] ?? []
        let declaration = fragments.compactMap { $0["spelling"] as? String }.joined()
        lines.insert(path + "  " + declaration.split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }
}
print(lines.sorted().joined(separator: "\n"))
