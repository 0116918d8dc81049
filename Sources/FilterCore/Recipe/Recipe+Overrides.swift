import Foundation

extension Recipe {
    /// Sets parameter `param` of node `id` (in a chain: the step index) from a JSON or bare-word value, with the same
    /// checks and messages as decoding.
    public mutating func set(node id: String, param: String, value text: String) throws {
        let path = "--set \(id).\(param)"
        guard let index = nodes.firstIndex(where: { $0.id == id }) else {
            throw RecipeError(path: path, "no node \"\(id)\"\(NearestName.hint(for: id, in: nodes.map(\.id)))")
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
}
