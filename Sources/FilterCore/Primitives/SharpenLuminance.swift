extension Primitives {
    /// RGB += amount·(Y − Y₃ₓ₃): one amount added to all three channels.
    package struct SharpenLuminance: PrimitiveDescriptor {
        package var amount: Float
        package var summary: String { "luminance sharpen ×\(amount)" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: 1) }
        package func taps(_ shape: NodeShape) -> Double { 9 }
        package var onSamples: SampleAction { .computes }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { true }
    }
}
