import Foundation

extension Recipe {
    /// Checks the recipe exactly as a JSON recipe is checked (a graph built in Swift may hold anything): the same
    /// `RecipeError`s, paths and did-you-mean hints. Throws every problem found.
    public func validate(limits: RecipeLimits = .default) throws {
        _ = try validated(limits: limits)
    }

    /// The recipe as the JSON reader reads it: checked, and every value in the form the catalogue declares (a value
    /// written in a form the reader also accepts, such as an angle as a numeric string, normalised). Renders lower
    /// this, so a Swift-built graph reaches the filters exactly as its JSON would.
    package func validated(limits: RecipeLimits = .default) throws -> Recipe {
        var decoder = RecipeDecoder(limits: limits)
        let decoded = decoder.decode(jsonValue)
        guard decoder.issues.isEmpty, var decoded else { throw RecipeError(decoder.issues) }
        decoded.baseDirectory = baseDirectory
        decoded.fileFolders = fileFolders
        return decoded
    }

    /// The recipe as the JSON value a file would hold (every parameter given, in `steps` or `nodes`).
    var jsonValue: JSONValue {
        var top: [String: JSONValue] = ["version": .number(Double(Recipe.currentVersion))]
        if let description { top["description"] = .string(description) }
        top["workingSpace"] = .string(workingSpace.rawValue)
        if let fidelity { top["fidelity"] = .string(fidelity.rawValue) }
        let entries: [JSONValue] = nodes.enumerated().map { k, node in
            var entry: [String: JSONValue] = ["op": .string(node.op.rawValue)]
            for (name, value) in node.params.values { entry[name] = value.jsonValue }
            if isChain && node.id != String(k) { entry["id"] = .string(node.id) }
            if !isChain {
                entry["id"] = .string(node.id)
                if node.op.spec.inputs.count == 1 && node.inputs.count == 1 { entry["input"] = .string(node.inputs[0]) }
                else { entry["inputs"] = .array(node.inputs.map(JSONValue.string)) }
            }
            return .object(entry)
        }
        if isChain {
            top["steps"] = .array(entries)
        } else {
            top["inputs"] = .array(inputs.map(JSONValue.string))
            top["nodes"] = .array(entries)
            top["output"] = .string(output)
        }
        return .object(top)
    }

    /// The recipe as JSON: parameters equal to their defaults are left out, keys sorted, so equal recipes
    /// encode to equal bytes. Throws the `RecipeError`s of `validate()` for a recipe that is not valid.
    public func jsonData() throws -> Data {
        try validate(limits: RecipeLimits(maxBytes: .max, maxNodes: .max))
        var top: [String: JSONValue] = ["version": .number(Double(Recipe.currentVersion))]
        if let description { top["description"] = .string(description) }
        if workingSpace != .linear { top["workingSpace"] = .string(workingSpace.rawValue) }
        if let fidelity { top["fidelity"] = .string(fidelity.rawValue) }
        let entries: [JSONValue] = nodes.enumerated().map { k, node in
            var entry: [String: JSONValue] = ["op": .string(node.op.rawValue)]
            let defaults = node.op.spec.defaults
            for (name, value) in node.params.values where value != defaults.values[name] { entry[name] = value.jsonValue }
            if isChain && node.id != String(k) { entry["id"] = .string(node.id) }
            if !isChain {
                entry["id"] = .string(node.id)
                if node.op.spec.inputs.count == 1 && node.inputs.count == 1 { entry["input"] = .string(node.inputs[0]) }
                else if !node.inputs.isEmpty { entry["inputs"] = .array(node.inputs.map(JSONValue.string)) }
            }
            return .object(entry)
        }
        if isChain {
            top["steps"] = .array(entries)
        } else {
            top["inputs"] = .array(inputs.map(JSONValue.string))
            top["nodes"] = .array(entries)
            top["output"] = .string(output)
        }
        return try JSONValue.object(top).prettyData()
    }
}

extension ParamValue {
    var jsonValue: JSONValue {
        switch self {
        case .number(let v): return .number(v)
        case .boolean(let v): return .bool(v)
        case .string(let v): return .string(v)
        case .numbers(let v): return .array(v.map(JSONValue.number))
        case .points(let v): return .array(v.map { .array($0.map(JSONValue.number)) })
        case .color(let c): return .array([c.r, c.g, c.b, c.a].map(JSONValue.number))
        }
    }
}

extension Recipe: CustomDebugStringConvertible {
    /// The recipe as its JSON (what `print` shows; `description` is the recipe's own text).
    public var debugDescription: String {
        (try? jsonData()).map { String(decoding: $0, as: UTF8.self) } ?? "an invalid recipe of \(nodes.count) nodes"
    }
}
