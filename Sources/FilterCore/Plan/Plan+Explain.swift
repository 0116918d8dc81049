/// Human-readable plans for `--explain`.
extension Plan {
    package func explanation(backend: Backend) -> String {
        var lines = ["plan (\(workingSpace.rawValue) working space, backend \(backend)):"]
        var planned = 0
        for (i, node) in nodes.enumerated() {
            let inputs = node.inputs.isEmpty ? "" : " ← " + node.inputs.map { "#\($0)" }.joined(separator: ", ")
            let rule = rowRule(of: i)
            let post = node.post.isEmpty ? "" : " + per-pixel ×\(node.post.count) on store"
            let held = node.representation.summary + (node.representationReason.isEmpty ? "" : ": \(node.representationReason)")
            lines.append("  #\(i) \(node.op) [\(node.origin)] \(node.primitive.descriptor.summary)\(post) \(node.width)×\(node.height)\(inputs) (\(rule.words); \(held))")
            if rule.holdsWhole, let input = node.inputs.first {
                planned += nodes[input].width * nodes[input].height * nodes[input].representation.bytesPerPixel
            }
        }
        lines.append("  output #\(output)")
        lines.append("  planned intermediate memory beyond strips: \(planned / 1_048_576) MiB")
        return lines.joined(separator: "\n")
    }
}
