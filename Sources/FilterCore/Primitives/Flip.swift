extension Primitives {
    /// A mirror image, left to right or top to bottom.
    package struct Flip: PrimitiveDescriptor {
        package var horizontal: Bool
        package var summary: String { horizontal ? "flip horizontal" : "flip vertical" }
        /// Top to bottom, the first output rows read the last input rows: a strip-wise render holds the input.
        package func rowRule(_ shape: NodeShape) -> RowRule {
            horizontal ? .window(reach: 0) : .mirrored(height: shape.input.height)
        }
        package func taps(_ shape: NodeShape) -> Double { 1 }
        package var onSamples: SampleAction { .moves }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
