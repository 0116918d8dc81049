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

    /// The value as JSON-compatible Foundation objects.
    public var jsonObject: Any {
        switch self {
        case .number(let v): return v.rounded() == v && abs(v) < 1e15 ? Int(v) as Any : v
        case .boolean(let v): return v
        case .string(let v): return v
        case .numbers(let v): return v
        case .points(let v): return v
        case .color(let c): return [c.r, c.g, c.b, c.a]
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
