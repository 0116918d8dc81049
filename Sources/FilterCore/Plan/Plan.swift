import Foundation

/// A graph of primitives with known sizes, ready for a backend. Nodes are in topological order.
package struct Plan: Sendable {
    package struct Node: Sendable {
        package var primitive: Primitive
        package var inputs: [Int]
        package var width: Int
        package var height: Int
        /// The recipe node this came from (its id), for `--explain` and statistics.
        package var origin: String
        package var op: String
        /// Per-pixel steps applied to the node's result as it is stored (the optimizer moves a per-pixel node that
        /// only this node feeds here, so its work costs no extra pass).
        package var post: [PointOp] = []
        /// How the CPU holds the node's rows (`Plan.choosingRepresentations`), and why.
        package var representation: Representation = .working
        package var representationReason = ""
        /// A node held as samples whose `post` steps run when its rows become working values, not on the samples.
        package var postOnConversion = false
        /// A working node whose input stays stored samples, read through a table (`Primitive.readsSamples`).
        package var readsSamples = false
    }

    package var nodes: [Node]
    package var output: Int
    package var workingSpace: WorkingSpace
}

/// Builds a plan while a recipe is lowered; knows the size of everything added so far.
package struct PlanBuilder {
    package struct Ref: Hashable, Sendable { package let index: Int }

    package private(set) var nodes: [Plan.Node] = []
    package let workingSpace: WorkingSpace
    var origin = ""
    var op = ""
    /// Answers to analysis questions, by the asking node's id (`answer(_:about:)`).
    package var answers: [String: AnalysisAnswer] = [:]
    /// The folder relative file parameters are resolved against (nil: the current directory).
    package var baseDirectory: String?
    /// The folders file parameters must lie in (nil: anywhere); see `Recipe.fileFolders`.
    package var fileFolders: [String]?
    /// Questions asked while lowering that `answers` did not hold.
    package internal(set) var requests: [AnalysisRequest] = []

    init(workingSpace: WorkingSpace) { self.workingSpace = workingSpace }

    package func size(_ ref: Ref) -> (width: Int, height: Int) {
        (nodes[ref.index].width, nodes[ref.index].height)
    }

    package mutating func add(_ primitive: Primitive, _ inputs: [Ref], width: Int, height: Int) -> Ref {
        nodes.append(Plan.Node(primitive: primitive, inputs: inputs.map(\.index), width: width, height: height,
                               origin: origin, op: op))
        return Ref(index: nodes.count - 1)
    }

    /// A size-preserving primitive on one input.
    package mutating func add(_ primitive: Primitive, on input: Ref) -> Ref {
        let (w, h) = size(input)
        return add(primitive, [input], width: w, height: h)
    }

    package mutating func point(_ op: PointOp, on input: Ref) -> Ref { add(.point([op]), on: input) }

    /// A file parameter's path: absolute as given, relative ones against the recipe's folder. Under `fileFolders`
    /// only a relative path naming a regular file inside one of them (links followed) is given back.
    package func resolved(_ path: String) throws -> String {
        guard let folders = fileFolders else {
            guard !path.hasPrefix("/"), let base = baseDirectory else { return path }
            return (base as NSString).appendingPathComponent(path)
        }
        return try FileConfinement(folders: folders).file(path, base: baseDirectory)
    }
}

/// A problem found while lowering (it depends on input sizes, so it cannot be found earlier).
package struct PlanError: Error, CustomStringConvertible {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
