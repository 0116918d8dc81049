extension Primitives {
    /// Inputs (foreground, background, mask): mix(background, foreground, mask weight).
    package struct BlendWithMask: PrimitiveDescriptor {
        package var coverage: Bool
        package var summary: String { coverage ? "blend with mask (coverage)" : "blend with mask" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: 0) }
        package func taps(_ shape: NodeShape) -> Double { 1 }
        package var onSamples: SampleAction { .mixesPixels }
        /// The mask only weighs the two.
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] && inputs[1] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] || inputs[1] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
