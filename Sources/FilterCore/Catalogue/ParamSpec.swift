/// One declared parameter of a filter: name, type with its valid range, default and meaning.
public struct ParamSpec: Sendable {
    public enum Kind: Sendable {
        case number(ClosedRange<Double>)
        case integer(ClosedRange<Int>)
        case boolean
        case choice([String])
        /// A list of numbers whose length is one of `counts`.
        case numbers(counts: [Int], range: ClosedRange<Double>)
        /// Curve control points in [0, 1]², x strictly increasing.
        case points(minCount: Int)
        case color
        /// A file beside the recipe (a relative path is resolved against the recipe's folder), with one of
        /// `extensions`.
        case file(extensions: [String])
        /// Free text (a string to set, a font family) of at most `maxBytes` UTF-8 bytes, without NUL.
        case text(maxBytes: Int)
    }

    public let name: String
    public let kind: Kind
    public let defaultValue: ParamValue
    public let summary: String
    /// Also read a number written as a JSON string (a parameter that was once a choice of numeric strings, so
    /// recipes written then still load).
    public var acceptsNumericString = false

    public init(_ name: String, _ kind: Kind, default defaultValue: ParamValue, _ summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
    }

    public static func number(_ name: String, _ range: ClosedRange<Double>, default value: Double,
                              _ summary: String) -> ParamSpec {
        ParamSpec(name, .number(range), default: .number(value), summary)
    }

    public static func integer(_ name: String, _ range: ClosedRange<Int>, default value: Int,
                               _ summary: String) -> ParamSpec {
        ParamSpec(name, .integer(range), default: .number(Double(value)), summary)
    }

    public static func choice(_ name: String, _ options: [String], default value: String,
                              _ summary: String) -> ParamSpec {
        ParamSpec(name, .choice(options), default: .string(value), summary)
    }

    public static func color(_ name: String, default value: RGBA, _ summary: String) -> ParamSpec {
        ParamSpec(name, .color, default: .color(value), summary)
    }

    public static func file(_ name: String, extensions: [String], _ summary: String) -> ParamSpec {
        ParamSpec(name, .file(extensions: extensions), default: .string(""), summary)
    }

    public static func text(_ name: String, default value: String, maxBytes: Int, _ summary: String) -> ParamSpec {
        ParamSpec(name, .text(maxBytes: maxBytes), default: .string(value), summary)
    }

    public static func boolean(_ name: String, default value: Bool, _ summary: String) -> ParamSpec {
        ParamSpec(name, .boolean, default: .boolean(value), summary)
    }

    /// What the type accepts, in words (used in errors, `filterrun list` and the JSON Schema).
    public var expectation: String {
        switch kind {
        case .number(let r): return "a number in \(Self.format(r.lowerBound))...\(Self.format(r.upperBound))"
        case .integer(let r): return "an integer in \(r.lowerBound)...\(r.upperBound)"
        case .boolean: return "true or false"
        case .choice(let options): return "one of " + options.map { "\"\($0)\"" }.joined(separator: ", ")
        case .numbers(let counts, _):
            return "a list of " + counts.map(String.init).joined(separator: " or ") + " numbers"
        case .points(let n): return "a list of at least \(n) [x, y] points in 0...1 with increasing x"
        case .color: return "a colour: [r, g, b], [r, g, b, a] in 0...1 or \"#rrggbb[aa]\""
        case .file(let extensions):
            return "the path of a " + extensions.map { ".\($0)" }.joined(separator: " or ") + " file (relative to the recipe's folder)"
        case .text(let maxBytes): return "a string of at most \(maxBytes) bytes (UTF-8)"
        }
    }

    static func format(_ v: Double) -> String {
        v.rounded() == v && abs(v) < 1e9 ? String(Int(v)) : String(v)
    }
}
