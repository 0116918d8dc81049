import FilterCore

extension Primitives.ToneAdjustFilter: VulkanPrimitive {
    var inputReads: InputReads { .atItsPixel }

    func encode(_ encoder: inout VulkanNodeEncoder) throws {
        encoder.push.set(ToneParameters(shadows: tone.shadows, highlights: tone.highlights, detail: tone.detail))
        let source = ShaderLibrary.source(.toneAdjust)
        encoder.add(.toneAdjust, source: tone.encodedWorkingSpace
            ? source.replacingOccurrences(of: "// @SPACE", with: "#define ENCODED_WORKING") : source)
    }
}
