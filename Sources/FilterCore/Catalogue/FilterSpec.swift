/// The single declaration of a filter. JSON decoding and validation, `filterrun list`, the JSON Schema, the
/// lowering to backend primitives and the cross-backend tests all read it.
public struct FilterSpec: Sendable {
    public enum Family: String, Sendable, CaseIterable {
        case colour, neighbourhood, geometry, compositing, generator
    }

    public let id: FilterID
    public let family: Family
    public let summary: String
    /// Exact formula and edge handling.
    public let formula: String
    /// Names of the image inputs, in order. Generators list one optional input that only gives the size.
    public let inputs: [String]
    public let params: [ParamSpec]
    /// Largest difference allowed between backends and against the float64 reference, in 8-bit output codes.
    public let tolerance: Double
    /// Checks that involve several parameters or the input size; returns a problem per failed check.
    package let check: @Sendable (Params) -> [String]
    /// Expands the filter into backend primitives.
    let lower: @Sendable (inout PlanBuilder, Params, [PlanBuilder.Ref]) throws -> PlanBuilder.Ref

    init(_ id: FilterID, _ family: Family, _ summary: String, formula: String, inputs: [String] = ["input"],
         params: [ParamSpec] = [], tolerance: Double = 1,
         check: @escaping @Sendable (Params) -> [String] = { _ in [] },
         lower: @escaping @Sendable (inout PlanBuilder, Params, [PlanBuilder.Ref]) throws -> PlanBuilder.Ref) {
        self.id = id
        self.family = family
        self.summary = summary
        self.formula = formula
        self.inputs = inputs
        self.params = params
        self.tolerance = tolerance
        self.check = check
        self.lower = lower
    }

    public func param(named name: String) -> ParamSpec? { params.first { $0.name == name } }

    /// Parameters with every default filled in.
    package var defaults: Params {
        Params(Dictionary(uniqueKeysWithValues: params.map { ($0.name, $0.defaultValue) }))
    }

    /// A generator makes pixels from its parameters; its only input, if any, gives the size.
    public var isGenerator: Bool { family == .generator }
}
