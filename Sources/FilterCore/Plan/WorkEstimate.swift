/// What a plan will cost before it runs: pixel-taps (output pixels × the input samples each reads, summed over
/// every node) and the working memory of a strip-wise render. Lets a render refuse an absurd request — a 3 001-tap
/// blur over a 4K image, a thousand-node graph — in microseconds instead of burning minutes or gigabytes.
package struct WorkEstimate: Sendable {
    /// Default refusal threshold: 4·10¹⁰ pixel-taps, about 50 s of work on 2 cores (a σ 100 Gaussian on 24 MP
    /// passes; σ 500 on 4K does not).
    package static let defaultLimit = 4e10

    /// Output pixels × taps, summed over the plan.
    package let pixelTaps: Double
    /// Rows held by strips and whole-image nodes, in bytes, if rendered in strips on the CPU (with the plan's
    /// representations, when chosen).
    package let workingBytes: Double
    /// The recipe node id of the costliest node and its share.
    package let costliest: String
    package let costliestOp: String
    package let costliestTaps: Double

    package init(_ plan: Plan) {
        var total = 0.0, bytes = 0.0
        var worst = (origin: "", op: "", taps: -1.0)
        for (index, node) in plan.nodes.enumerated() {
            let pixels = Double(node.width) * Double(node.height)
            let input = node.inputs.first.map { plan.nodes[$0] }
            let taps = Self.taps(ofNode: index, in: plan)
            total += pixels * taps
            if pixels * taps > worst.taps { worst = (node.origin, node.op, pixels * taps) }
            // Strips of about 1 MiB of floats (at least 8 rows) plus the rows the node's window reaches, in the
            // node's representation; a node that streams otherwise (a resample, a box reduction) holds the input rows
            // one strip reads; a node that reads its whole input holds it in the input's.
            let strip = max(8.0, 1_048_576 / max(1, Double(node.width) * 16))
            let rowBytes = Double(node.width) * Double(node.representation.bytesPerPixel)
            let rule = plan.rowRule(of: index)
            if let reach = rule.reach {
                bytes += rowBytes * (strip + 2 * Double(reach))
            } else if let input {
                let inputRowBytes = Double(input.width) * Double(input.representation.bytesPerPixel)
                // A row rule answers for the node's own rows only.
                let rows = 0..<min(Int(strip), node.height)
                let read = rule.holdsWhole || rows.isEmpty ? nil : rule.rows(rows).map { Double(min($0.count, input.height)) }
                bytes += read.map { rowBytes * strip + inputRowBytes * $0 } ?? inputRowBytes * Double(input.height)
            }
        }
        pixelTaps = total
        workingBytes = bytes
        costliest = worst.origin
        costliestOp = worst.op
        costliestTaps = max(0, worst.taps)
    }

    /// Input samples read per output pixel of node `index`, its fused per-pixel steps included.
    package static func taps(ofNode index: Int, in plan: Plan) -> Double {
        let node = plan.nodes[index]
        return node.primitive.descriptor.taps(plan.shape(of: index)) + Double(node.post.count)
    }

    /// The refusal message for a limit of `limit` pixel-taps.
    package func refusal(limit: Double) -> String {
        func giga(_ v: Double) -> String { v >= 1e9 ? "\(Int((v / 1e9).rounded())) G" : "\(Int(v.rounded()))" }
        return "this render would cost about \(giga(pixelTaps)) pixel-taps (\(giga(costliestTaps)) in \(costliestOp) "
            + "\"\(costliest)\"), over the limit of \(giga(limit)) (\(SettingName.maxWork)); lower the radius or sigma, or "
            + "raise \(SettingName.maxWork) to run it anyway"
    }
}
