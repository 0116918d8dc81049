extension Primitives {
    /// The luminance's 3×3 Sobel gradient magnitude as grey, alpha 1.
    package struct Sobel: PrimitiveDescriptor {
        package var summary: String { "sobel" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: 1) }
        package func taps(_ shape: NodeShape) -> Double { 9 }
        package var onSamples: SampleAction { .computes }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { true }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { false }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { true }
    }
}
