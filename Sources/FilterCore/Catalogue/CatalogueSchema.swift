import Foundation

/// The JSON Schema of recipe version 1, generated from the catalogue so it never disagrees with the decoder.
package enum CatalogueSchema {
    package static func schema() -> [String: Any] {
        let stepVariants: [[String: Any]] = FilterID.allCases.map { nodeSchema($0, graph: false) }
        let nodeVariants: [[String: Any]] = FilterID.allCases.map { nodeSchema($0, graph: true) }
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "FilterRecipe recipe, version 1",
            "type": "object",
            "required": ["version"],
            "additionalProperties": false,
            "properties": [
                "version": ["const": 1],
                "description": ["type": "string"],
                "workingSpace": ["enum": WorkingSpace.allCases.map(\.rawValue)],
                "steps": ["type": "array", "items": ["oneOf": stepVariants]],
                "inputs": ["type": "array", "items": ["type": "string"], "minItems": 1, "uniqueItems": true],
                "nodes": ["type": "array", "items": ["oneOf": nodeVariants]],
                "output": ["type": "string"],
            ] as [String: Any],
            "oneOf": [["required": ["steps"]], ["required": ["nodes", "output"]]],
        ]
    }

    package static func jsonData() throws -> Data {
        try JSONSerialization.data(withJSONObject: schema(), options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
    }

    static func nodeSchema(_ id: FilterID, graph: Bool) -> [String: Any] {
        let spec = id.spec
        var properties: [String: Any] = ["op": ["const": id.rawValue], "description": ["type": "string"]]
        for param in spec.params { properties[param.name] = paramSchema(param) }
        var required = ["op"]
        // Nodes need an id; a chain's step may carry one (for --set), or is named by its position.
        properties["id"] = ["type": "string", "minLength": 1]
        if graph {
            required.append("id")
            if spec.inputs.count == 1 { properties["input"] = ["type": "string"] }
            if spec.inputs.count > 1 || spec.isGenerator {
                properties["inputs"] = ["type": "array", "items": ["type": "string"],
                                        "minItems": spec.isGenerator ? 0 : spec.inputs.count,
                                        "maxItems": spec.inputs.count]
            }
        }
        return ["type": "object", "description": spec.summary, "properties": properties, "required": required,
                "additionalProperties": false]
    }

    static func paramSchema(_ param: ParamSpec) -> [String: Any] {
        var schema: [String: Any] = ["description": "\(param.summary) (default \(param.defaultValue.jsonObject))"]
        switch param.kind {
        case .number(let r) where param.acceptsNumericString:
            schema["oneOf"] = [["type": "number", "minimum": r.lowerBound, "maximum": r.upperBound],
                               ["type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"]]
        case .number(let r): schema["type"] = "number"; schema["minimum"] = r.lowerBound; schema["maximum"] = r.upperBound
        case .integer(let r): schema["type"] = "integer"; schema["minimum"] = r.lowerBound; schema["maximum"] = r.upperBound
        case .boolean: schema["type"] = "boolean"
        case .choice(let options): schema["enum"] = options
        case .numbers(let counts, let r):
            schema["type"] = "array"
            schema["items"] = ["type": "number", "minimum": r.lowerBound, "maximum": r.upperBound]
            schema["minItems"] = counts.min()!
            schema["maxItems"] = counts.max()!
        case .points(let n):
            schema["type"] = "array"
            schema["minItems"] = n
            schema["items"] = ["type": "array", "minItems": 2, "maxItems": 2,
                               "items": ["type": "number", "minimum": 0, "maximum": 1]]
        case .file(let extensions):
            schema["type"] = "string"
            schema["pattern"] = "\\.(" + extensions.joined(separator: "|") + ")$"
        case .color:
            schema["oneOf"] = [
                ["type": "array", "minItems": 3, "maxItems": 4, "items": ["type": "number", "minimum": 0, "maximum": 1]],
                ["type": "string", "pattern": "^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$"],
            ]
        }
        return schema
    }
}
