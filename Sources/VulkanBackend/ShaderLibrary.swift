import Foundation

/// The GLSL sources of Shaders/, embedded at build time, with `#include "x"` lines replaced by Shaders/include/x (or,
/// for `kernel_constants.glsl`, by the constants Swift generates: `KernelConstants`), includes within includes too,
/// so every compiled source is self-contained (and its hash covers everything it uses). The generated constants
/// guard themselves, so a kernel and its includes may each name them.
enum ShaderLibrary {
    /// The expanded source of Shaders/`kernel`.comp (every kernel has its file: KernelInterfaceTests).
    static func source(_ kernel: Kernel) -> String {
        expand(ShaderSources.files["\(kernel.rawValue).comp"] ?? "")
    }

    static func expand(_ text: String) -> String {
        var lines = [Substring]()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("#include \"") else { lines.append(line); continue }
            let name = trimmed.dropFirst("#include \"".count).prefix { $0 != "\"" }
            if name == "kernel_constants.glsl" {
                lines.append(Substring(KernelConstants.glsl))
                continue
            }
            guard let included = ShaderSources.files["include/\(name)"] else {
                preconditionFailure("no shader include \(name)")
            }
            lines.append(Substring(expand(included)))
        }
        return lines.joined(separator: "\n")
    }
}

/// Every compute kernel in Shaders/, by the name of its file: a kernel is asked for by case, never by a string.
enum Kernel: String, CaseIterable {
    case bilateral, blend, box, convolve, crop, generate, median, morphology, pack, pad, point, reorient, resample, sobel, unpack
    case blendWithMask = "blend_with_mask", boxReduce = "box_reduce", convolveTiled = "convolve_tiled"
    case separableHorizontal = "separable_horizontal"
    case separableHorizontalTiled = "separable_horizontal_tiled", separableVertical = "separable_vertical"
    case separableVerticalTiled = "separable_vertical_tiled"
    case sharpenLuminance = "sharpen_luminance", unsharpCombine = "unsharp_combine", lineBlur = "line_blur"
    case toneAdjust = "tone_adjust", warp
}
