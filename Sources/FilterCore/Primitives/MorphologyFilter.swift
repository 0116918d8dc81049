extension Primitives {
    /// Per-channel maximum or minimum over a flat element (`Morphology`).
    package struct MorphologyFilter: PrimitiveDescriptor {
        package var morphology: Morphology
        package var summary: String { "\(morphology.operation.rawValue) \(morphology.shape.rawValue) r=\(morphology.radius)" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: morphology.radius) }
        /// The CPU reads each row's running extremes (about three values a pixel) for every row of the element.
        package func taps(_ shape: NodeShape) -> Double { Double(4 * (2 * morphology.radius + 1)) }
        package var onSamples: SampleAction { .picks }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
