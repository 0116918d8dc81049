import Foundation

/// A parsed JSON value that keeps numbers, booleans and strings apart (validation needs to say what it found).
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let v = try? c.decode(Bool.self) { self = .bool(v) }
        else if let v = try? c.decode(Double.self) { self = .number(v) }
        else if let v = try? c.decode(String.self) { self = .string(v) }
        else if let v = try? c.decode([JSONValue].self) { self = .array(v) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    /// How an error message shows a found value.
    var shown: String {
        switch self {
        case .null: return "null"
        case .bool(let v): return String(v)
        case .number(let v): return ParamSpec.format(v)
        case .string(let v): return "\"\(v.count > 40 ? v.prefix(40) + "…" : Substring(v))\""
        case .array(let v): return v.count <= 4 ? "[" + v.map(\.shown).joined(separator: ", ") + "]" : "a list of \(v.count)"
        case .object: return "an object"
        }
    }

    /// A parameter value as a recipe writes it.
    init(_ value: ParamValue) {
        switch value {
        case .number(let v): self = .number(v)
        case .boolean(let v): self = .bool(v)
        case .string(let v): self = .string(v)
        case .numbers(let v): self = .array(v.map(JSONValue.number))
        case .points(let v): self = .array(v.map { .array($0.map(JSONValue.number)) })
        case .color(let c): self = .array([c.r, c.g, c.b, c.a].map(JSONValue.number))
        }
    }

    /// Compact JSON text, as a recipe writes the value.
    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    var number: Double? { if case .number(let v) = self { return v }; return nil }
    var string: String? { if case .string(let v) = self { return v }; return nil }
}

/// Written as JSON the recipe way: whole numbers without a fraction.
extension JSONValue: Encodable {
    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let v): try c.encode(v)
        case .number(let v): if ParamValue.isWhole(v) { try c.encode(Int(v)) } else { try c.encode(v) }
        case .string(let v): try c.encode(v)
        case .array(let v): try c.encode(v)
        case .object(let v): try c.encode(v)
        }
    }

    /// Pretty-printed with sorted keys, so equal values give equal bytes.
    func prettyData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .number(Double(value)) }
    init(floatLiteral value: Double) { self = .number(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
