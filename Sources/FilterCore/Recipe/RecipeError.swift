/// Everything wrong with a recipe, found before any pixel is touched. Each issue names its JSON path.
public struct RecipeError: Error, CustomStringConvertible, Sendable {
    public struct Issue: Sendable, Equatable, CustomStringConvertible {
        public let path: String
        public let message: String
        public var description: String { path.isEmpty ? message : "\(path): \(message)" }
        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }
    }

    public let issues: [Issue]

    public init(_ issues: [Issue]) { self.issues = issues }
    public init(path: String, _ message: String) { issues = [Issue(path: path, message: message)] }

    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
