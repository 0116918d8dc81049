extension Primitives {
    /// Inputs (source, backdrop): a W3C blend mode with the source's alpha scaled by `opacity`.
    package struct Blend: PrimitiveDescriptor {
        package var mode: BlendMode
        package var opacity: Float
        package var summary: String { "blend \(mode.rawValue) opacity \(opacity)" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: 0) }
        package func taps(_ shape: NodeShape) -> Double { 1 }
        package var onSamples: SampleAction { .mixesPixels }
        /// Separable modes treat the channels alike; the others mix them.
        package func keepsNeutral(_ inputs: [Bool]) -> Bool {
            inputs.allSatisfy { $0 } && ![.hue, .saturation, .color, .luminosity].contains(mode)
        }
        /// αo = αs + αb(1 − αs) is 1 wherever the backdrop is opaque.
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[1] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
