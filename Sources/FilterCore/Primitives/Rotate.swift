extension Primitives {
    /// Clockwise quarter turns (1, 2 or 3).
    package struct Rotate: PrimitiveDescriptor {
        package var quarterTurns: Int
        package var summary: String { "rotate \(quarterTurns * 90)°" }
        /// A half turn reads rows mirrored; a quarter turn reads every row for each output row.
        package func rowRule(_ shape: NodeShape) -> RowRule {
            quarterTurns == 2 ? .mirrored(height: shape.input.height) : .whole(height: shape.input.height)
        }
        package func taps(_ shape: NodeShape) -> Double { 1 }
        package var onSamples: SampleAction { .moves }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
