/// A plan cut in two at one node: a first part that ends at that node, run on the CPU (where the decoder streams its
/// rows and a reduction is cheapest), and the rest, which reads the first part's result as a source of its own, run
/// on a device. `auto` prices such cuts beside the whole plan on either backend (`BackendChoice`): a cut pays where
/// the CPU's part shrinks what goes up to the device and the device's part is heavy.
package struct PlanSplit: Sendable {
    /// The node the plan is cut after (an index into the whole plan).
    package let node: Int
    /// The nodes the cut node depends on, with it as the output; sources as in the whole plan.
    package let first: Plan
    /// The rest: the cut node's result is its source `sourceName`, beside the sources no node of the first part reads.
    package let rest: Plan

    /// The source name the rest reads the first part's result under.
    package static let sourceName = "#first part"

    /// The cut after node `index`, or nil where it cannot be made: the node is a source or the output, or a later
    /// node reads one of its ancestors other than itself (both parts would compute it, or read one source twice).
    package init?(_ plan: Plan, after index: Int) {
        guard plan.nodes.indices.contains(index), index != plan.output, plan.nodes[index].primitive.sourceName == nil
        else { return nil }
        var ancestors = Set([index]), stack = [index]
        while let next = stack.popLast() {
            for input in plan.nodes[next].inputs where ancestors.insert(input).inserted { stack.append(input) }
        }
        // The rest: every node that is not an ancestor, in the plan's order; it may read the cut node and sources.
        let restNodes = plan.nodes.indices.filter { !ancestors.contains($0) }
        guard restNodes.contains(plan.output) else { return nil }
        for i in restNodes where plan.nodes[i].inputs.contains(where: { ancestors.contains($0) && $0 != index }) {
            return nil
        }
        node = index
        first = Self.subplan(plan, keeping: ancestors.sorted(), output: index, replacing: [:])
        var cutSource = plan.nodes[index]
        cutSource.primitive = .source(name: Self.sourceName)
        cutSource.inputs = []
        cutSource.post = []
        cutSource.op = "read \"\(Self.sourceName)\""
        cutSource.representation = .working
        cutSource.postOnConversion = false
        cutSource.readsSamples = false
        rest = Self.subplan(plan, keeping: [index] + restNodes, output: plan.output, replacing: [index: cutSource])
    }

    /// The nodes `keeping` (in that order) of `plan`, inputs renumbered, with `replacing`'s nodes in place of the
    /// plan's at those indices.
    static func subplan(_ plan: Plan, keeping: [Int], output: Int, replacing: [Int: Plan.Node]) -> Plan {
        var position = [Int: Int]()
        for (new, old) in keeping.enumerated() { position[old] = new }
        let nodes = keeping.map { old -> Plan.Node in
            var node = replacing[old] ?? plan.nodes[old]
            node.inputs = node.inputs.map { position[$0]! }
            return node
        }
        return Plan(nodes: nodes, output: position[output]!, workingSpace: plan.workingSpace)
    }

    /// Every cut the plan allows, in the plan's order.
    package static func all(_ plan: Plan) -> [PlanSplit] {
        plan.nodes.indices.compactMap { PlanSplit(plan, after: $0) }
    }
}
