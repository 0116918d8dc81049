extension Primitives {
    /// Neighbours weighted by distance and likeness (`Bilateral`).
    package struct BilateralFilter: PrimitiveDescriptor {
        package var bilateral: Bilateral
        package var summary: String {
            "bilateral \(bilateral.window.rawValue) r=\(bilateral.radius), \(bilateral.taps.count) taps"
        }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: bilateral.verticalReach) }
        /// Each tap also weighs its likeness (an exponential): counted twice.
        package func taps(_ shape: NodeShape) -> Double { Double(2 * bilateral.taps.count) }
        package var onSamples: SampleAction { .computes }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
