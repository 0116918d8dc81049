import FilterCore

/// A per-pixel operation's Vulkan kernel: its block of GLSL in the fused point kernel (`PointKernelSource`), its
/// parameters put in the parameter block so the compiled kernel depends only on the chain's shape. Each of
/// FilterCore's `PointOps` conforms here (the CPU's loops: PointOps+CPU.swift).
protocol VulkanPointOp: PointOpDescriptor {
    func emit(into source: inout PointKernelSource)
}

extension PointOps.Matrix: VulkanPointOp {
    func emit(into source: inout PointKernelSource) {
        let m = matrix
        let p = source.parameters(m.m + [m.offset[0], m.offset[1], m.offset[2], m.offset[3]])
        func column(_ j: Int) -> String { "vec4(\(p(j)), \(p(4 + j)), \(p(8 + j)), \(p(12 + j)))" }
        source.emit("// colour matrix",
                    "vec4 o = vec4(\(p(16)), \(p(17)), \(p(18)), \(p(19)));",
                    "o += \(column(0)) * c.r;", "o += \(column(1)) * c.g;",
                    "o += \(column(2)) * c.b;", "o += \(column(3)) * c.a;",
                    "c = o;")
    }
}

extension PointOps.Gamma: VulkanPointOp {
    func emit(into source: inout PointKernelSource) {
        let p = source.parameters([power])
        source.emit("// gamma", "c.rgb = vec3(powSigned(c.r, \(p(0))), powSigned(c.g, \(p(0))), powSigned(c.b, \(p(0))));")
    }
}

extension PointOps.Levels: VulkanPointOp {
    func emit(into source: inout PointKernelSource) {
        let p = source.parameters([inBlack, inWhite, gamma, outBlack, outWhite, 1 / gamma])
        source.emit("// levels",
                    "for (int i = 0; i < 3; i++) {",
                    "    float t = (c[i] - \(p(0))) / (\(p(1)) - \(p(0)));",
                    "    t = t > 0.0 ? (t < 1.0 ? t : 1.0) : 0.0;",
                    "    c[i] = \(p(3)) + (\(p(4)) - \(p(3))) * (\(p(2)) == 1.0 ? t : pow(t, \(p(5))));",
                    "}")
    }
}

extension PointOps.Curves: VulkanPointOp {
    func emit(into source: inout PointKernelSource) {
        var lines = ["// curves"]
        for (curve, channel) in [(red, "r"), (green, "g"), (blue, "b")] {
            guard let curve else { continue }
            lines.append("c.\(channel) = curve(\(source.table(curve.table)), c.\(channel));")
        }
        if let master {
            lines.append("for (int i = 0; i < 3; i++) c[i] = curve(\(source.table(master.table)), c[i]);")
        }
        source.emit(lines)
    }
}

extension PointOps.Threshold: VulkanPointOp {
    func emit(into source: inout PointKernelSource) {
        let p = source.parameters([level])
        source.emit("// threshold", "float t = luma(c) >= \(p(0)) ? 1.0 : 0.0;", "c = vec4(t, t, t, c.a);")
    }
}

extension PointOps.Posterize: VulkanPointOp {
    func emit(into source: inout PointKernelSource) {
        let p = source.parameters([levels - 1])
        source.emit("// posterize", "c.rgb = floor(clamp(c.rgb, 0.0, 1.0) * \(p(0)) + 0.5) / \(p(0));")
    }
}

extension PointOps.Vibrance: VulkanPointOp {
    func emit(into source: inout PointKernelSource) {
        let p = source.parameters([amount])
        source.emit("// vibrance",
                    "float y = luma(c);",
                    "float spread = clamp(max(c.r, max(c.g, c.b)) - min(c.r, min(c.g, c.b)), 0.0, 1.0);",
                    "float k = 1.0 + \(p(0)) * (1.0 - spread);",
                    "c.rgb = y + (c.rgb - y) * k;")
    }
}

extension PointOps.Vignette: VulkanPointOp {
    func emit(into source: inout PointKernelSource) {
        let p = source.parameters([radius, intensity])
        source.emit("// vignette",
                    "float cx = float(pc.size.x) / 2.0, cy = float(pc.size.y) / 2.0;",
                    "float dx = float(p.x) + 0.5 - cx, dy = float(p.y) + 0.5 - cy;",
                    "float d = sqrt(dx * dx + dy * dy) / sqrt(cx * cx + cy * cy);",
                    "float t = \(p(0)) > 0.0 ? min(d / \(p(0)), 1.0) : 1.0;",
                    "c.rgb *= 1.0 - \(p(1)) * t * t;")
    }
}

extension PointOps.Clamp: VulkanPointOp {
    func emit(into source: inout PointKernelSource) {
        let p = source.parameters([low, high])
        source.emit("// clamp", "c.rgb = clamp(c.rgb, \(p(0)), \(p(1)));", "c.a = clamp(c.a, 0.0, 1.0);")
    }
}

extension PointOps.ClearTransparent: VulkanPointOp {
    func emit(into source: inout PointKernelSource) {
        source.emit("// transparent pixels lose their colour", "if (!(c.a > 0.0)) c.rgb = vec3(0.0);")
    }
}

extension PointOps.LUT: VulkanPointOp {
    func emit(into source: inout PointKernelSource) {
        let header = source.parameters([Float(lut.size), lut.shape == .threeD ? 1 : 0, tetrahedral ? 1 : 0, strength,
                                 lut.domainMin.x, lut.domainMin.y, lut.domainMin.z,
                                 lut.domainMax.x, lut.domainMax.y, lut.domainMax.z])
        let entries = source.table(lut.table)
        let lo = "vec3(\(header(4)), \(header(5)), \(header(6)))", hi = "vec3(\(header(7)), \(header(8)), \(header(9)))"
        source.emit("// colour lookup table",
                    "vec3 v = clamp(c.rgb, \(lo), \(hi));",
                    "c.rgb = v + \(header(3)) * (lutLookup(\(entries), int(\(header(0))), \(header(1)) != 0.0, \(header(2)) != 0.0, \(lo), \(hi), v) - v);")
    }
}

extension PointOps.Transfer: VulkanPointOp {
    func emit(into source: inout PointKernelSource) {
        switch conversion {
        case .encode: source.emit("// sRGB encoding", "c.rgb = srgbEncode(c.rgb);")
        case .decode: source.emit("// sRGB decoding", "c.rgb = srgbDecode(c.rgb);")
        case .none: break
        }
    }
}
