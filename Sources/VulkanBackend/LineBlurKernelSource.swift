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
            push.set(MotionBlurParameters(count: count, halfSegment: (dx, dy)))
        case let .zoom(cx, cy, s):
            push.set(ZoomBlurParameters(centre: (cx, cy), fraction: s))
        }
    }
}
