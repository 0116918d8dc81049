/// A graph of primitives with known sizes, ready for a backend. Nodes are in topological order.
public struct Plan: Sendable {
    public struct Node: Sendable {
        public var primitive: Primitive
        public var inputs: [Int]
        public var width: Int
        public var height: Int
        /// The recipe node this came from (its id), for `--explain` and statistics.
        public var origin: String
        public var op: String
        /// Per-pixel steps applied to the node's result as it is stored (the optimizer moves a per-pixel node that
        /// only this node feeds here, so its work costs no extra pass).
        public var post: [PointOp] = []
    }

    public var nodes: [Node]
    public var output: Int
    public var workingSpace: WorkingSpace
}

/// Builds a plan while a recipe is lowered; knows the size of everything added so far.
public struct PlanBuilder {
    public struct Ref: Hashable, Sendable { public let index: Int }

    public private(set) var nodes: [Plan.Node] = []
    public let workingSpace: WorkingSpace
    var origin = ""
    var op = ""

    init(workingSpace: WorkingSpace) { self.workingSpace = workingSpace }

    public func size(_ ref: Ref) -> (width: Int, height: Int) {
        (nodes[ref.index].width, nodes[ref.index].height)
    }

    public mutating func add(_ primitive: Primitive, _ inputs: [Ref], width: Int, height: Int) -> Ref {
        nodes.append(Plan.Node(primitive: primitive, inputs: inputs.map(\.index), width: width, height: height,
                               origin: origin, op: op))
        return Ref(index: nodes.count - 1)
    }

    /// A size-preserving primitive on one input.
    public mutating func add(_ primitive: Primitive, on input: Ref) -> Ref {
        let (w, h) = size(input)
        return add(primitive, [input], width: w, height: h)
    }

    public mutating func point(_ op: PointOp, on input: Ref) -> Ref { add(.point([op]), on: input) }
}

/// A problem found while lowering (it depends on input sizes, so it cannot be found earlier).
public struct PlanError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
