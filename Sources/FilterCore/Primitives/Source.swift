extension Primitives {
    /// A recipe input image: its stored samples. Its greyness and alpha are the decoded file's, handed to it as
    /// its one "input" value by the plan's checks.
    package struct Source: PrimitiveDescriptor {
        package var name: String
        package var summary: String { "read \"\(name)\"" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .none("rows as decoded") }
        package func taps(_ shape: NodeShape) -> Double { 1 }
        package var onSamples: SampleAction { .stored }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs.first ?? false }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs.first ?? true }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
