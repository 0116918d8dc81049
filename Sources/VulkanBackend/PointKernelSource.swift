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
    private mutating func parameters(_ values: [Float]) -> (Int) -> String {
        let base = table(values)
        return { "params[\(base + $0)]" }
    }

    /// Adds `values` to the parameter block and returns their offset in it.
    private mutating func table(_ values: [Float]) -> Int {
        params += values
        return parameterBase + params.count - values.count
    }

    private mutating func emit(_ lines: String...) { emit(lines) }

    private mutating func emit(_ lines: [String]) {
        body += "    {\n" + lines.map { "        \($0)\n" }.joined() + "    }\n"
    }

    private mutating func append(_ op: PointOp) {
        switch op {
        case .matrix(let m):
            let p = parameters(m.m + [m.offset[0], m.offset[1], m.offset[2], m.offset[3]])
            func column(_ j: Int) -> String { "vec4(\(p(j)), \(p(4 + j)), \(p(8 + j)), \(p(12 + j)))" }
            emit("// colour matrix",
                 "vec4 o = vec4(\(p(16)), \(p(17)), \(p(18)), \(p(19)));",
                 "o += \(column(0)) * c.r;", "o += \(column(1)) * c.g;",
                 "o += \(column(2)) * c.b;", "o += \(column(3)) * c.a;",
                 "c = o;")
        case .gamma(let power):
            let p = parameters([power])
            emit("// gamma", "c.rgb = vec3(powSigned(c.r, \(p(0))), powSigned(c.g, \(p(0))), powSigned(c.b, \(p(0))));")
        case let .levels(inBlack, inWhite, gamma, outBlack, outWhite):
            let p = parameters([inBlack, inWhite, gamma, outBlack, outWhite, 1 / gamma])
            emit("// levels",
                 "for (int i = 0; i < 3; i++) {",
                 "    float t = (c[i] - \(p(0))) / (\(p(1)) - \(p(0)));",
                 "    t = t > 0.0 ? (t < 1.0 ? t : 1.0) : 0.0;",
                 "    c[i] = \(p(3)) + (\(p(4)) - \(p(3))) * (\(p(2)) == 1.0 ? t : pow(t, \(p(5))));",
                 "}")
        case let .curves(master, red, green, blue):
            var lines = ["// curves"]
            for (curve, channel) in [(red, "r"), (green, "g"), (blue, "b")] {
                guard let curve else { continue }
                lines.append("c.\(channel) = curve(\(table(curve.table)), c.\(channel));")
            }
            if let master {
                lines.append("for (int i = 0; i < 3; i++) c[i] = curve(\(table(master.table)), c[i]);")
            }
            emit(lines)
        case .threshold(let level):
            let p = parameters([level])
            emit("// threshold", "float t = luma(c) >= \(p(0)) ? 1.0 : 0.0;", "c = vec4(t, t, t, c.a);")
        case .posterize(let levels):
            let p = parameters([levels - 1])
            emit("// posterize", "c.rgb = floor(clamp(c.rgb, 0.0, 1.0) * \(p(0)) + 0.5) / \(p(0));")
        case .vibrance(let amount):
            let p = parameters([amount])
            emit("// vibrance",
                 "float y = luma(c);",
                 "float spread = clamp(max(c.r, max(c.g, c.b)) - min(c.r, min(c.g, c.b)), 0.0, 1.0);",
                 "float k = 1.0 + \(p(0)) * (1.0 - spread);",
                 "c.rgb = y + (c.rgb - y) * k;")
        case let .clamp(low, high):
            let p = parameters([low, high])
            emit("// clamp", "c.rgb = clamp(c.rgb, \(p(0)), \(p(1)));", "c.a = clamp(c.a, 0.0, 1.0);")
        case .clearTransparent:
            emit("// transparent pixels lose their colour", "if (!(c.a > 0.0)) c.rgb = vec3(0.0);")
        case let .lut(lut, tetrahedral, strength):
            let header = parameters([Float(lut.size), lut.shape == .threeD ? 1 : 0, tetrahedral ? 1 : 0, strength,
                                     lut.domainMin.x, lut.domainMin.y, lut.domainMin.z,
                                     lut.domainMax.x, lut.domainMax.y, lut.domainMax.z])
            let entries = table(lut.table)
            let lo = "vec3(\(header(4)), \(header(5)), \(header(6)))", hi = "vec3(\(header(7)), \(header(8)), \(header(9)))"
            emit("// colour lookup table",
                 "vec3 v = clamp(c.rgb, \(lo), \(hi));",
                 "c.rgb = v + \(header(3)) * (lutLookup(\(entries), int(\(header(0))), \(header(1)) != 0.0, \(header(2)) != 0.0, \(lo), \(hi), v) - v);")
        case .transfer(let conversion):
            switch conversion {
            case .encode: emit("// sRGB encoding", "c.rgb = srgbEncode(c.rgb);")
            case .decode: emit("// sRGB decoding", "c.rgb = srgbDecode(c.rgb);")
            case .none: break
            }
        case let .vignette(radius, intensity):
            let p = parameters([radius, intensity])
            emit("// vignette",
                 "float cx = float(pc.size.x) / 2.0, cy = float(pc.size.y) / 2.0;",
                 "float dx = float(p.x) + 0.5 - cx, dy = float(p.y) + 0.5 - cy;",
                 "float d = sqrt(dx * dx + dy * dy) / sqrt(cx * cx + cy * cy);",
                 "float t = \(p(0)) > 0.0 ? min(d / \(p(0)), 1.0) : 1.0;",
                 "c.rgb *= 1.0 - \(p(1)) * t * t;")
        }
    }
}

/// Generated kernel sources, for `--explain=verbose`.
package enum KernelSources {
    /// The complete GLSL of the fused kernel for `ops`.
    package static func point(_ ops: [PointOp]) -> String { PointKernelSource(ops).source }
}
