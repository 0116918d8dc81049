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

    var number: Double? { if case .number(let v) = self { return v }; return nil }
    var string: String? { if case .string(let v) = self { return v }; return nil }
}
