import FilterCore

/// Generates the fused kernel of a chain of per-pixel operations: Shaders/point.comp with one block of GLSL per
/// operation. Parameters go to the parameter block rather than into the source, so the compiled kernel depends only
/// on the chain's shape and is reused for every parameter value.
struct PointKernelSource {
    private(set) var body = ""
    private(set) var params: [Float] = []
    /// Where this code's parameters start in the dispatch's parameter block.
    let parameterBase: Int

    init(_ ops: [PointOp], parameterBase: Int = 0) {
        self.parameterBase = parameterBase
        for op in ops { append(op) }
    }

    /// `kernel` with these steps applied in its `store` (the kernel's own parameters come first in the block).
    func fused(into kernel: String) -> String {
        var lines = kernel.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert("#define POST_OPS", at: 1)  // after #version
        return lines.joined(separator: "\n") + "\n" + ShaderLibrary.expand(#"#include "point_ops.glsl""#) + """

        vec4 postOps(ivec2 p, vec4 v) {
            float a = v.a;
            vec4 c = a != 0.0 ? v / a : vec4(0.0);
            c.a = a;
        \(body)    float alpha = c.a;
            c *= alpha;
            c.a = alpha;
            return c;
        }

        """
    }

    var source: String {
        ShaderLibrary.source(.point).replacingOccurrences(of: "    // @OPS", with: body)
    }

    /// Adds `values` to the parameter block and returns the GLSL that reads value `i` of them.
    mutating func parameters(_ values: [Float]) -> (Int) -> String {
        let base = table(values)
        return { "params[\(base + $0)]" }
    }

    /// Adds `values` to the parameter block and returns their offset in it.
    mutating func table(_ values: [Float]) -> Int {
        params += values
        return parameterBase + params.count - values.count
    }

    mutating func emit(_ lines: String...) { emit(lines) }

    mutating func emit(_ lines: [String]) {
        body += "    {\n" + lines.map { "        \($0)\n" }.joined() + "    }\n"
    }

    private mutating func append(_ op: PointOp) {
        // Every descriptor has a kernel here (PrimitiveKernelTests and PrimitiveEncodingTests check every operation).
        guard let kernel = op.descriptor as? any VulkanPointOp else { preconditionFailure("no Vulkan kernel for \(op)") }
        kernel.emit(into: &self)
    }
}

/// Generated kernel sources, for `--explain=verbose`.
package enum KernelSources {
    /// The complete GLSL of the fused kernel for `ops`.
    package static func point(_ ops: [PointOp]) -> String { PointKernelSource(ops).source }
}
