extension Primitives {
    /// Per-channel median over a (2r+1)² window.
    package struct Median: PrimitiveDescriptor {
        package var radius: Int
        package var summary: String { "median r=\(radius)" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: radius) }
        package func taps(_ shape: NodeShape) -> Double { Double((2 * radius + 1) * (2 * radius + 1)) }
        package var onSamples: SampleAction { .picks }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
