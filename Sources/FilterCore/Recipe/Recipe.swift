/// A filter graph described as data. Building or decoding one computes nothing.
public struct Recipe: Equatable, Sendable {
    public struct Node: Equatable, Sendable {
        public var id: String
        public var op: FilterID
        /// Names of recipe inputs or ids of other nodes, one per declared input of the filter.
        public var inputs: [String]
        /// Every parameter, defaults filled in.
        public var params: Params

        public init(id: String, op: FilterID, inputs: [String], params: [String: ParamValue] = [:]) {
            self.id = id
            self.op = op
            self.inputs = inputs
            var full = op.spec.defaults
            for (name, value) in params { full.set(name, value) }
            self.params = full
        }
    }

    public static let currentVersion = 1

    public var description: String?
    public var workingSpace: WorkingSpace
    /// How close a shrink stays to the exact resize (`Fidelity`); nil for the renderer's setting (`.high` unless
    /// it is given one).
    public var fidelity: Fidelity?
    public var inputs: [String]
    public var nodes: [Node]
    public var output: String
    /// Written back as `steps` (a chain on `main`) rather than `nodes`.
    public var isChain: Bool
    /// The folder relative file parameters (a LUT's path) are resolved against: the recipe file's folder when read
    /// from a file, otherwise nil (the current directory).
    public var baseDirectory: String?
    /// The folders file parameters (a LUT's path) must lie in; nil (the default) for anywhere. When set, a file
    /// parameter is a relative path — against `baseDirectory` when that lies in one of the folders, else against the
    /// first folder — naming a regular file inside one of them once links are followed; an absolute path, `..` or a
    /// link leading out is refused. A server sets it so that a recipe never reads a file outside its folders.
    public var fileFolders: [String]?

    public init(description: String? = nil, workingSpace: WorkingSpace = .linear, inputs: [String] = ["main"],
                nodes: [Node], output: String, isChain: Bool = false) {
        self.description = description
        self.workingSpace = workingSpace
        self.inputs = inputs
        self.nodes = nodes
        self.output = output
        self.isChain = isChain
    }

    /// A chain of steps on the input `main`; step k gets the id "k".
    public static func chain(_ steps: [(FilterID, [String: ParamValue])], description: String? = nil,
                             workingSpace: WorkingSpace = .linear) -> Recipe {
        var nodes = [Node]()
        for (k, step) in steps.enumerated() {
            nodes.append(Node(id: String(k), op: step.0, inputs: [k == 0 ? "main" : String(k - 1)], params: step.1))
        }
        return Recipe(description: description, workingSpace: workingSpace, nodes: nodes,
                      output: nodes.last?.id ?? "main", isChain: true)
    }

    /// The JSON path prefix of node `index` ("steps[2]" or "nodes[2]").
    public func path(ofNode index: Int) -> String { "\(isChain ? "steps" : "nodes")[\(index)]" }
}
