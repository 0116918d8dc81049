/// The complete parameters of one node: every declared parameter, with defaults filled in.
/// Accessors are called once per node when a plan is built, never per pixel.
public struct Params: Equatable, Sendable {
    public private(set) var values: [String: ParamValue]

    public init(_ values: [String: ParamValue]) { self.values = values }

    package subscript(name: String) -> ParamValue {
        guard let value = values[name] else { preconditionFailure("parameter \(name) is not declared") }
        return value
    }

    package mutating func set(_ name: String, _ value: ParamValue) { values[name] = value }

    package func number(_ name: String) -> Double {
        if case .number(let v) = self[name] { return v }
        preconditionFailure("\(name) is not a number")
    }

    package func float(_ name: String) -> Float { Float(number(name)) }
    package func int(_ name: String) -> Int { Int(number(name)) }

    package func bool(_ name: String) -> Bool {
        if case .boolean(let v) = self[name] { return v }
        preconditionFailure("\(name) is not a boolean")
    }

    package func string(_ name: String) -> String {
        if case .string(let v) = self[name] { return v }
        preconditionFailure("\(name) is not a string")
    }

    package func numbers(_ name: String) -> [Double] {
        if case .numbers(let v) = self[name] { return v }
        preconditionFailure("\(name) is not a list of numbers")
    }

    package func points(_ name: String) -> [[Double]] {
        if case .points(let v) = self[name] { return v }
        preconditionFailure("\(name) is not a list of points")
    }

    package func color(_ name: String) -> RGBA {
        if case .color(let v) = self[name] { return v }
        preconditionFailure("\(name) is not a colour")
    }
}
