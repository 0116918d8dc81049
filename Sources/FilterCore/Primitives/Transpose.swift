extension Primitives {
    /// Rows become columns: out(x, y) = in(y, x).
    package struct Transpose: PrimitiveDescriptor {
        package var summary: String { "transpose" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .whole(height: shape.input.height) }
        package func taps(_ shape: NodeShape) -> Double { 1 }
        package var onSamples: SampleAction { .moves }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
