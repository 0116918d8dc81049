import Foundation

extension Recipe {
    /// Sets parameter `param` of node `id` (in a chain: the step index) from a JSON or bare-word value, with the same
    /// checks and messages as decoding.
    public mutating func set(node id: String, param: String, value text: String) throws {
        let path = "\(id).\(param)"
        // A chain's steps answer to their position too, whether or not they carry an id.
        let position = isChain ? Int(id).flatMap { nodes.indices.contains($0) ? $0 : nil } : nil
        guard let index = nodes.firstIndex(where: { $0.id == id }) ?? position else {
            throw RecipeError(path: path, "no node \"\(id)\"" + nodeHint(for: id))
        }
        let spec = nodes[index].op.spec
        guard let declared = spec.param(named: param) else {
            throw RecipeError(path: path, "\(spec.id.rawValue) has no parameter \"\(param)\"\(NearestName.hint(for: param, in: spec.params.map(\.name)))")
        }
        let json = (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .string(text)
        guard let value = ParamDecoding.decode(json, as: declared) else {
            throw RecipeError(path: path, "expected \(declared.expectation), found \(json.shown)")
        }
        var params = nodes[index].params
        params.set(param, value)
        let problems = spec.check(params)
        guard problems.isEmpty else { throw RecipeError(problems.map { .init(path: path, message: $0) }) }
        nodes[index].params = params
    }

    /// Why `name` named no node: the step or node running the filter of that name (`vignette` → step 2), or the
    /// nearest id.
    func nodeHint(for name: String) -> String {
        let running = nodes.enumerated().filter { $0.element.op.rawValue.lowercased() == name.lowercased() }
        if let (k, node) = running.first.map({ ($0.offset, $0.element) }) {
            let which = isChain ? "step" : "node"
            let others = running.count > 1 ? " (and \(running.count - 1) more)" : ""
            let naming = isChain && node.id == String(k)
                ? "; give it \"id\": \"\(name)\" in the recipe to use that name" : ""
            return " (the \(node.op.rawValue) is \(which) \"\(node.id)\"\(others)\(naming))"
        }
        return NearestName.hint(for: name, in: nodes.map(\.id))
    }
}
