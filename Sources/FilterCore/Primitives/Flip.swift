extension Primitives {
    /// A mirror image, left to right or top to bottom.
    package struct Flip: SampleMove {
        package var horizontal: Bool
        package var summary: String { horizontal ? "flip horizontal" : "flip vertical" }
        /// Top to bottom, the first output rows read the last input rows: a strip-wise render holds the input.
        package func rowRule(_ shape: NodeShape) -> RowRule {
            horizontal ? .window(reach: 0) : .mirrored(height: shape.input.height)
        }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
    }
}
