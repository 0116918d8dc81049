/// The complete parameters of one node: every declared parameter, with defaults filled in.
/// Accessors are called once per node when a plan is built, never per pixel.
public struct Params: Equatable, Sendable {
    public private(set) var values: [String: ParamValue]

    public init(_ values: [String: ParamValue]) { self.values = values }

    public subscript(name: String) -> ParamValue {
        guard let value = values[name] else { preconditionFailure("parameter \(name) is not declared") }
        return value
    }

    public mutating func set(_ name: String, _ value: ParamValue) { values[name] = value }

    public func number(_ name: String) -> Double {
        if case .number(let v) = self[name] { return v }
        // A number once declared as a choice of numeric strings (validation has accepted only such parameters).
        if case .string(let s) = self[name], let v = Double(s) { return v }
        preconditionFailure("\(name) is not a number")
    }

    public func float(_ name: String) -> Float { Float(number(name)) }
    public func int(_ name: String) -> Int { Int(number(name)) }

    public func bool(_ name: String) -> Bool {
        if case .boolean(let v) = self[name] { return v }
        preconditionFailure("\(name) is not a boolean")
    }

    public func string(_ name: String) -> String {
        if case .string(let v) = self[name] { return v }
        preconditionFailure("\(name) is not a string")
    }

    public func numbers(_ name: String) -> [Double] {
        if case .numbers(let v) = self[name] { return v }
        preconditionFailure("\(name) is not a list of numbers")
    }

    public func points(_ name: String) -> [[Double]] {
        if case .points(let v) = self[name] { return v }
        preconditionFailure("\(name) is not a list of points")
    }

    public func color(_ name: String) -> RGBA {
        if case .color(let v) = self[name] { return v }
        preconditionFailure("\(name) is not a colour")
    }
}
