import FilterCore

/// The line-blur kernel for one path: Shaders/line_blur.comp with ZOOM_PATH defined for a zoom, and its push values.
enum LineBlurKernelSource {
    static func source(_ blur: LineBlur) -> String {
        guard case .zoom = blur.path else { return ShaderLibrary.source(.lineBlur) }
        return ShaderLibrary.source(.lineBlur).replacingOccurrences(of: "// @PATH", with: "#define ZOOM_PATH")
    }

    static func configure(_ push: inout PushConstants, _ blur: LineBlur) {
        switch blur.path {
        case let .motion(dx, dy, count):
            push.f0 = SIMD4(dx, dy, 0, 0)
            push.ints.x = Int32(count)
        case let .zoom(cx, cy, s):
            push.f0 = SIMD4(cx, cy, s, 0)
        }
    }
}
