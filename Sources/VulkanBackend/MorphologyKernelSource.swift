import FilterCore

/// The morphology kernel for one operation: Shaders/morphology.comp with GLSL's max or min named for ELEMENT_EXTREME, and
/// the passes an element takes, each as its table of half-widths a row.
enum MorphologyKernelSource {
    static func source(_ operation: Morphology.Operation) -> String {
        let function = operation == .dilate ? "max" : "min"
        return ShaderLibrary.source(.morphology).replacingOccurrences(of: "// @ELEMENT_EXTREME", with: "#define ELEMENT_EXTREME \(function)")
    }

    /// A square is separable (a row of half-width r, then a column of 2r + 1 rows): two passes of O(r) taps rather
    /// than one of O(r²). A disc is not: one pass over its rows.
    static func passes(_ morphology: Morphology) -> [[Float]] {
        let r = morphology.radius
        switch morphology.shape {
        case .square: return [[Float(r)], [Float](repeating: 0, count: 2 * r + 1)]
        case .disc: return [morphology.halfWidths.map(Float.init)]
        }
    }
}
