import FilterCore

/// The numbers kernels switch on, written once here: each list's order gives the codes the push constants carry, and
/// `glsl` writes the same codes as named constants into the include `kernel_constants.glsl`, so shaders compare
/// names (`BLEND_MULTIPLY`), never numbers. Reordering a list changes both sides together.
enum KernelConstants {
    /// Generators (Shaders/generate.comp).
    enum GeneratorKind: String, CaseIterable { case solid, linear, radial, checkerboard, text }

    /// Warp's parameter block (Shaders/warp.comp reads `params[WARP_PARAM_ROW_G]`…): the projective row and the
    /// widening bound, in this order.
    enum WarpParameter: String, CaseIterable { case rowG, rowH, rowI, maxWidening }

    /// Every named constant: (prefix, names in code order).
    static var groups: [(prefix: String, names: [String])] {
        [("BLEND", BlendMode.allCases.map(\.rawValue)),
         ("KERNEL", ResampleKernel.allCases.map(\.rawValue)),
         ("GENERATOR", GeneratorKind.allCases.map(\.rawValue)),
         ("REORIENT", Reorientation.allCases.map(\.rawValue)),
         ("WARP_PARAM", WarpParameter.allCases.map(\.rawValue))]
    }

    /// The include's text: `const int PREFIX_NAME = code;` for every constant, then each kernel parameter's name
    /// for its push-block slot (`#define CONVOLVE_SIZE (pc.ints.x)`, from `KernelParameterBlocks`).
    /// Tiled kernels' work groups: a row tile of 256 pixels (separable horizontal passes) and square tiles of 16×16
    /// (vertical passes, 2-D convolutions); the shaders' `local_size` and the dispatches' group counts both read these.
    static let rowTile = 256, squareTile = 16

    static let glsl: String = {
        var lines = ["// Generated from Swift (KernelConstants.swift): the codes push constants carry.",
                     "#ifndef GENERATED_CONSTANTS_INCLUDED", "#define GENERATED_CONSTANTS_INCLUDED"]
        lines.append("// Descriptor bindings (KernelLayout.Slot).")
        for slot in KernelLayout.Slot.allCases { lines.append("#define BINDING_\(constantName(slot.rawValue)) \(slot.index)") }
        lines.append("// Conversion tables' offsets in the tables binding (ConversionTables.parts).")
        for (name, offset) in ConversionTables.offsets { lines.append("const int \(name) = \(offset);") }
        lines.append("const int ENCODE_STEPS = \(SRGB.encodeSteps);")
        lines.append("// Tiled kernels' work groups.")
        lines.append("#define ROW_TILE \(rowTile)")
        lines.append("#define SQUARE_TILE \(squareTile)")
        for group in groups {
            for (code, name) in group.names.enumerated() {
                lines.append("const int \(group.prefix)_\(constantName(name)) = \(code);")
            }
        }
        lines.append("// Kernel parameters (KernelParameters.swift): each field's name for its slot of the push block.")
        for (name, slot) in parameterSlots { lines.append("#define \(name) (pc.\(slot))") }
        lines.append("#endif")
        return lines.joined(separator: "\n") + "\n"
    }()

    /// Every kernel parameter's GLSL name and slot, in declaration order; a name several blocks share (the
    /// generators' `GENERATE_KIND`) once.
    static let parameterSlots: [(name: String, slot: String)] = {
        var seen = Set<String>(), slots = [(name: String, slot: String)]()
        for block in KernelParameterBlocks.all {
            for field in block.fields where seen.insert(block.prefix + "_" + field.name).inserted {
                slots.append((block.prefix + "_" + field.name, field.slot))
            }
        }
        return slots
    }()

    /// `softLight` → `SOFT_LIGHT`, `rotate90` → `ROTATE90`, `lanczos3` → `LANCZOS3`.
    static func constantName(_ name: String) -> String {
        var out = ""
        for c in name {
            if c.isUppercase { out += "_" }
            out += c.uppercased()
        }
        return out
    }

    static func code<T: CaseIterable & Equatable>(_ value: T) -> Int32 {
        Int32(T.allCases.firstIndex(of: value).map { T.allCases.distance(from: T.allCases.startIndex, to: $0) } ?? 0)
    }
}

extension BlendMode {
    var kernelCode: Int32 { KernelConstants.code(self) }
}

extension ResampleKernel {
    var kernelCode: Int32 { KernelConstants.code(self) }
}

extension KernelConstants.GeneratorKind {
    var kernelCode: Int32 { KernelConstants.code(self) }
}

extension Reorientation {
    var kernelCode: Int32 { KernelConstants.code(self) }
}
