import Foundation

/// The JSON Schema of recipe version 1, generated from the catalogue so it never disagrees with the decoder.
package enum CatalogueSchema {
    static func schema() -> JSONValue {
        let stepVariants = JSONValue.array(FilterID.allCases.map { nodeSchema($0, graph: false) })
        let nodeVariants = JSONValue.array(FilterID.allCases.map { nodeSchema($0, graph: true) })
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "FilterRecipe recipe, version 1",
            "type": "object",
            "required": ["version"],
            "additionalProperties": false,
            "properties": [
                "version": ["const": 1],
                "description": ["type": "string"],
                "workingSpace": ["enum": .array(WorkingSpace.allCases.map { .string($0.rawValue) })],
                "fidelity": ["enum": .array(Fidelity.allCases.map { .string($0.rawValue) })],
                "steps": ["type": "array", "items": ["oneOf": stepVariants]],
                "inputs": ["type": "array", "items": ["type": "string"], "minItems": 1, "uniqueItems": true],
                "nodes": ["type": "array", "items": ["oneOf": nodeVariants]],
                "output": ["type": "string"],
            ],
            "oneOf": [["required": ["steps"]], ["required": ["nodes", "output"]]],
        ]
    }

    package static func jsonData() throws -> Data {
        try schema().prettyData()
    }

    static func nodeSchema(_ id: FilterID, graph: Bool) -> JSONValue {
        let spec = id.spec
        var properties: [String: JSONValue] = ["op": ["const": .string(id.rawValue)], "description": ["type": "string"]]
        for param in spec.params { properties[param.name] = paramSchema(param) }
        var required = ["op"]
        // Nodes need an id; a chain's step may carry one (for --set), or is named by its position.
        properties["id"] = ["type": "string", "minLength": 1]
        if graph {
            required.append("id")
            if spec.inputs.count == 1 { properties["input"] = ["type": "string"] }
            if spec.inputs.count > 1 || spec.isGenerator {
                properties["inputs"] = ["type": "array", "items": ["type": "string"],
                                        "minItems": .number(Double(spec.isGenerator ? 0 : spec.inputs.count)),
                                        "maxItems": .number(Double(spec.inputs.count))]
            }
        }
        return ["type": "object", "description": .string(spec.summary), "properties": .object(properties),
                "required": .array(required.map(JSONValue.string)), "additionalProperties": false]
    }

    static func paramSchema(_ param: ParamSpec) -> JSONValue {
        let fallback = JSONValue(param.defaultValue)
        var schema: [String: JSONValue] = ["description": .string("\(param.summary) (default \(fallback.text))")]
        // A file has no default (the empty string stands for "none given").
        if case .file = param.kind {} else { schema["default"] = fallback }
        switch param.kind {
        case .number(let r) where param.acceptsNumericString:
            schema["oneOf"] = [["type": "number", "minimum": .number(r.lowerBound), "maximum": .number(r.upperBound)],
                               ["type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"]]
        case .number(let r):
            schema["type"] = "number"; schema["minimum"] = .number(r.lowerBound); schema["maximum"] = .number(r.upperBound)
        case .integer(let r):
            schema["type"] = "integer"
            schema["minimum"] = .number(Double(r.lowerBound)); schema["maximum"] = .number(Double(r.upperBound))
        case .boolean: schema["type"] = "boolean"
        case .choice(let options): schema["enum"] = .array(options.map(JSONValue.string))
        case .numbers(let counts, let r):
            schema["type"] = "array"
            schema["items"] = ["type": "number", "minimum": .number(r.lowerBound), "maximum": .number(r.upperBound)]
            schema["minItems"] = .number(Double(counts.min() ?? 0))
            schema["maxItems"] = .number(Double(counts.max() ?? 0))
        case .points(let n):
            schema["type"] = "array"
            schema["minItems"] = .number(Double(n))
            schema["items"] = ["type": "array", "minItems": 2, "maxItems": 2,
                               "items": ["type": "number", "minimum": 0, "maximum": 1]]
        case .file(let extensions):
            schema["type"] = "string"
            schema["pattern"] = .string("\\.(" + extensions.joined(separator: "|") + ")$")
        case .text(let maxBytes):
            schema["type"] = "string"
            schema["maxLength"] = .number(Double(maxBytes))
        case .color:
            schema["oneOf"] = [
                ["type": "array", "minItems": 3, "maxItems": 4, "items": ["type": "number", "minimum": 0, "maximum": 1]],
                ["type": "string", "pattern": "^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$"],
            ]
        }
        return .object(schema)
    }
}
