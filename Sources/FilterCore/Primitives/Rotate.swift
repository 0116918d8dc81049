extension Primitives {
    /// Clockwise quarter turns (1, 2 or 3).
    package struct Rotate: SampleMove {
        package var quarterTurns: Int
        package var summary: String { "rotate \(quarterTurns * 90)°" }
        /// A half turn reads rows mirrored; a quarter turn reads every row for each output row.
        package func rowRule(_ shape: NodeShape) -> RowRule {
            quarterTurns == 2 ? .mirrored(height: shape.input.height) : .whole(height: shape.input.height)
        }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
    }
}
