extension Primitives {
    /// Clockwise quarter turns (1, 2 or 3).
    package struct Rotate: PrimitiveDescriptor {
        package var quarterTurns: Int
        package var summary: String { "rotate \(quarterTurns * 90)°" }
        /// A half turn reads rows mirrored; a quarter turn reads every row for each output row.
        package func rowRule(_ shape: NodeShape) -> RowRule {
            let height = shape.input.height
            guard quarterTurns == 2 else { return .whole(height: height) }
            return .held { (height - $0.upperBound)..<(height - $0.lowerBound) }
        }
        package func taps(_ shape: NodeShape) -> Double { 1 }
        package var onSamples: SampleAction { .moves }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
