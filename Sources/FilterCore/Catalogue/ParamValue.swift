/// A parameter value as it appears in a recipe.
public enum ParamValue: Equatable, Sendable {
    case number(Double)
    case boolean(Bool)
    case string(String)
    case numbers([Double])
    /// Curve control points, each `[x, y]`.
    case points([[Double]])
    /// sRGB-encoded, straight-alpha RGBA in 0...1 (written `[r, g, b, a]`, `[r, g, b]` or `"#rrggbb[aa]"`).
    case color(RGBA)

    /// Whole numbers are written without a fraction, as recipes write them.
    static func isWhole(_ v: Double) -> Bool { v.rounded() == v && abs(v) < 1e15 }
}

/// A parameter value encodes as it appears in a recipe: a number (whole ones without a fraction), a boolean, a
/// string, a list of numbers or of [x, y] points, or a colour as [r, g, b, a].
extension ParamValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let v): if Self.isWhole(v) { try container.encode(Int(v)) } else { try container.encode(v) }
        case .boolean(let v): try container.encode(v)
        case .string(let v): try container.encode(v)
        case .numbers(let v): try container.encode(v)
        case .points(let v): try container.encode(v)
        case .color(let c): try container.encode([c.r, c.g, c.b, c.a])
        }
    }
}

/// A colour in sRGB-encoded, straight-alpha components.
public struct RGBA: Equatable, Sendable {
    public var r, g, b, a: Double
    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    public static let clear = RGBA(0, 0, 0, 0)
    public static let black = RGBA(0, 0, 0, 1)
    public static let white = RGBA(1, 1, 1, 1)

    /// Premultiplied working values for `space`.
    package func working(_ space: WorkingSpace) -> SIMD4<Float> {
        let f: (Double) -> Double = space == .linear ? SRGB.toLinear : { $0 }
        return SIMD4(Float(f(r) * a), Float(f(g) * a), Float(f(b) * a), Float(a))
    }
}
