import FilterCore
import Foundation

/// A lazy image: a recipe under construction. Every method returns a new image and computes nothing; pixels are
/// made only by `render`. Images from different inputs combine (blend, over, blendWithMask) into graphs.
///
///     let thumb = try Image(contentsOf: url).resize(width: 400).unsharpMask(sigma: 1, amount: 0.5)
///     try thumb.render(to: "thumb.png")
public struct Image: Sendable {
    final class Node: Sendable {  // immutable: every field is a `let` of a Sendable type
        enum Kind: Sendable { case input(String), filter(FilterID, [String: ParamValue]) }
        let kind: Kind
        let inputs: [Node]
        /// Distinct filter nodes in this node's graph, itself included: its index in `recipe` plus one.
        let upstreamFilterCount: Int
        init(_ kind: Kind, _ inputs: [Node]) {
            self.kind = kind
            self.inputs = inputs
            var seen = Set<ObjectIdentifier>()
            func count(_ n: Node) -> Int {
                guard seen.insert(ObjectIdentifier(n)).inserted else { return 0 }
                if case .input = n.kind { return 0 }
                return 1 + n.inputs.reduce(0) { $0 + count($1) }
            }
            var total = 0
            if case .filter = kind { total = 1 }
            for input in inputs { total += count(input) }
            upstreamFilterCount = total
        }
    }

    let node: Node
    /// Files bound to input names (by `init(contentsOf:)`).
    let files: [String: String]
    public var workingSpace: WorkingSpace = .linear

    /// The recipe input `name` (bind a file to it when rendering).
    public init(input name: String = "main") {
        node = Node(.input(name), [])
        files = [:]
    }

    /// The PNG at `url` as the input `name`. The file is not read until rendering.
    public init(contentsOf url: URL, as name: String = "main") {
        node = Node(.input(name), [])
        files = [name: url.path]
    }

    init(node: Node, files: [String: String], workingSpace: WorkingSpace) {
        self.node = node
        self.files = files
        self.workingSpace = workingSpace
    }

    /// Applies any catalogue filter; `others` are its further inputs (blend's backdrop, a mask...). The parameters
    /// are checked now, as a JSON recipe's are when read: a value out of its range, of the wrong kind or under a
    /// name the filter does not have throws a `RecipeError` whose path names this call (`gaussianBlur(sigma:) in
    /// step 2`).
    public func applying(_ op: FilterID, _ params: [String: ParamValue] = [:], with others: [Image] = []) throws -> Image {
        var files = self.files
        for other in others { files.merge(other.files) { a, _ in a } }
        let node = Node(.filter(op, params), [node] + others.map(\.node))
        let inputNames = (0..<(1 + others.count)).map { "input\($0)" }
        let single = Recipe(inputs: inputNames, nodes: [Recipe.Node(id: "call", op: op, inputs: inputNames, params: params)],
                            output: "call")
        do { try single.validate(limits: RecipeLimits(maxBytes: .max, maxNodes: .max)) } catch let error as RecipeError {
            let call = Self.callName(op, step: node.upstreamFilterCount - 1)
            throw RecipeError(error.issues.map { issue in
                let rest = issue.path.hasPrefix("nodes[0]") ? Substring(issue.path.dropFirst("nodes[0]".count)) : ""
                return .init(path: Self.callPath(call, rest), message: issue.message)
            })
        }
        return Image(node: node, files: files, workingSpace: workingSpace)
    }

    /// How messages name a builder call: "gaussianBlur(sigma:) in step 2" (the step's index in `recipe`).
    static func callName(_ op: FilterID, step: Int) -> String {
        let spec = op.spec
        let labels = (spec.isGenerator ? [] : spec.inputs.dropFirst().map { $0 + ":" }) + spec.params.map { $0.name + ":" }
        return "\(op.rawValue)(\(labels.joined())) in step \(step)"
    }

    /// "gaussianBlur(sigma:) in step 0, parameter sigma" from the call and the rest of a JSON path (".sigma").
    static func callPath(_ call: String, _ rest: Substring) -> String {
        rest.hasPrefix(".") ? call + ", parameter " + rest.dropFirst() : call + rest
    }

    /// A render's recipe error with its JSON paths ("steps[1].width") turned into the builder calls that made them.
    func namingCalls(_ error: RecipeError) -> RecipeError {
        let nodes = recipe.nodes
        return RecipeError(error.issues.map { issue in
            for prefix in ["steps[", "nodes["] where issue.path.hasPrefix(prefix) {
                let rest = issue.path.dropFirst(prefix.count)
                guard let close = rest.firstIndex(of: "]"), let k = Int(rest[..<close]), nodes.indices.contains(k) else { continue }
                let call = Self.callName(nodes[k].op, step: k)
                return .init(path: Self.callPath(call, rest[rest.index(after: close)...]), message: issue.message)
            }
            return issue
        })
    }

    /// The recipe this image describes: a chain of steps when it is one, otherwise a graph.
    public var recipe: Recipe {
        var order = [ObjectIdentifier: String]()
        var nodes = [Recipe.Node]()
        var inputs = [String]()
        func visit(_ n: Node) -> String {
            if let id = order[ObjectIdentifier(n)] { return id }
            let id: String
            switch n.kind {
            case .input(let name):
                if !inputs.contains(name) { inputs.append(name) }
                id = name
            case let .filter(op, params):
                let inputIDs = n.inputs.map(visit)
                id = "n\(nodes.count)"
                nodes.append(Recipe.Node(id: id, op: op, inputs: inputIDs, params: params))
            }
            order[ObjectIdentifier(n)] = id
            return id
        }
        let output = visit(node)
        // The main image leads, as in JSON recipes: the output's layout follows the first input.
        if let main = inputs.firstIndex(of: "main"), main > 0 { inputs.insert(inputs.remove(at: main), at: 0) }
        let isChain = inputs == ["main"] && nodes.enumerated().allSatisfy { k, n in
            n.inputs == [k == 0 ? "main" : "n\(k - 1)"]
        }
        if isChain {
            return Recipe.chain(nodes.map { ($0.op, $0.params.values) }, workingSpace: workingSpace)
        }
        return Recipe(workingSpace: workingSpace, inputs: inputs, nodes: nodes, output: output)
    }

    /// Renders to a PNG file (written atomically).
    @discardableResult
    public func render(to path: String, renderer: Renderer = Renderer(), inputs: [String: String] = [:]) throws -> RenderReport {
        do {
            return try renderer.render(recipe, inputs: files.merging(inputs) { _, new in new }, output: path)
        } catch RenderError.recipe(let error) {
            throw RenderError.recipe(namingCalls(error))
        }
    }
}

extension Image: CustomStringConvertible {
    /// The recipe this image describes, as JSON.
    public var description: String { recipe.debugDescription }
}
