import Foundation

extension Recipe {
    /// The recipe as JSON: parameters equal to their defaults are left out, keys sorted, so equal recipes
    /// encode to equal bytes.
    public func jsonData() throws -> Data {
        var top: [String: Any] = ["version": Recipe.currentVersion]
        if let description { top["description"] = description }
        if workingSpace != .linear { top["workingSpace"] = workingSpace.rawValue }
        let entries: [[String: Any]] = nodes.map { node in
            var entry: [String: Any] = ["op": node.op.rawValue]
            let defaults = node.op.spec.defaults
            for (name, value) in node.params.values where value != defaults[name] { entry[name] = value.jsonObject }
            if !isChain {
                entry["id"] = node.id
                if node.op.spec.inputs.count == 1 && node.inputs.count == 1 { entry["input"] = node.inputs[0] }
                else if !node.inputs.isEmpty { entry["inputs"] = node.inputs }
            }
            return entry
        }
        if isChain {
            top["steps"] = entries
        } else {
            top["inputs"] = inputs
            top["nodes"] = entries
            top["output"] = output
        }
        return try JSONSerialization.data(withJSONObject: top, options: [.sortedKeys, .prettyPrinted])
    }
}
