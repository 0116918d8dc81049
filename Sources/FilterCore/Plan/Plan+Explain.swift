/// Human-readable plans for `--explain`.
extension Plan {
    package func explanation(backend: String) -> String {
        var lines = ["plan (\(workingSpace.rawValue) working space, backend \(backend)):"]
        var planned = 0
        for (i, node) in nodes.enumerated() {
            let inputs = node.inputs.isEmpty ? "" : " ← " + node.inputs.map { "#\($0)" }.joined(separator: ", ")
            var rows = node.primitive.verticalReach.map { "strips, reach \($0) rows" } ?? "whole input"
            if case .boxReduce(_, let y) = node.primitive { rows = "strips, \(y) input rows a row" }
            if case .resample(.vertical, _, _) = node.primitive { rows = "strips, the rows its taps reach" }
            if case .lineBlur(let blur) = node.primitive, case .zoom = blur.path { rows = "strips, the rows toward the centre" }
            let post = node.post.isEmpty ? "" : " + per-pixel ×\(node.post.count) on store"
            let held = node.representation.summary + (node.representationReason.isEmpty ? "" : ": \(node.representationReason)")
            lines.append("  #\(i) \(node.op) [\(node.origin)] \(node.primitive.summary)\(post) \(node.width)×\(node.height)\(inputs) (\(rows); \(held))")
            if rows == "whole input", let input = node.inputs.first {
                planned += nodes[input].width * nodes[input].height * nodes[input].representation.bytesPerPixel
            }
        }
        lines.append("  output #\(output)")
        lines.append("  planned intermediate memory beyond strips: \(planned / 1_048_576) MiB")
        return lines.joined(separator: "\n")
    }
}

extension Primitive {
    /// A short description of the primitive and its parameters.
    package var summary: String {
        switch self {
        case .source(let name): return "read \"\(name)\""
        case .point(let ops): return "per-pixel ×\(ops.count)"
        case .separableConvolution(let h, _): return "separable convolution, \(h.count) taps"
        case .boxBlur(let r): return "box mean r=\(r)"
        case .convolve(_, let size, _, _): return "convolution \(size)×\(size)"
        case .unsharpCombine(let amount, _): return "unsharp combine ×\(amount)"
        case .sharpenLuminance(let amount): return "luminance sharpen ×\(amount)"
        case .sobel: return "sobel"
        case .median(let r): return "median r=\(r)"
        case .morphology(let m): return "\(m.operation.rawValue) \(m.shape.rawValue) r=\(m.radius)"
        case .toneAdjust(let t): return "local tone (shadows \(t.shadows), highlights \(t.highlights), detail \(t.detail))"
        case .bilateral(let b):
            return "bilateral \(b.window.rawValue) r=\(b.radius), \(b.taps.count) taps"
        case .lineBlur(let blur):
            switch blur.path {
            case .motion(_, _, let count): return "motion blur, \(count) samples"
            case .zoom: return "zoom blur"
            }
        case let .resample(axis, kernel, reduced):
            return "\(kernel.rawValue) resample \(axis.rawValue)" + (reduced.map { " (of a 1/\($0.factor) box reduction)" } ?? "")
        case let .boxReduce(x, y): return "box reduce \(x)×\(y)"
        case let .crop(x, y): return "crop at \(x),\(y)"
        case .flip(let h): return h ? "flip horizontal" : "flip vertical"
        case .rotate(let q): return "rotate \(q * 90)°"
        case .transpose: return "transpose"
        case let .warp(map, kernel, _): return "\(kernel.rawValue) \(map.isAffine ? "affine" : "perspective") resample"
        case .pad: return "pad"
        case let .blend(mode, opacity): return "blend \(mode.rawValue) opacity \(opacity)"
        case .blendWithMask(let coverage): return coverage ? "blend with mask (coverage)" : "blend with mask"
        case .generate: return "generate"
        }
    }
}
