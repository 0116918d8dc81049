extension Primitives {
    /// Mean over a (2r+1)² window by running sums that restart every `Primitive.boxSegment` rows and columns.
    package struct BoxBlur: PrimitiveDescriptor {
        package var radius: Int
        package var summary: String { "box mean r=\(radius)" }
        package func rowRule(_ shape: NodeShape) -> RowRule {
            .segmentedWindow(reach: radius, segment: Primitive.boxSegment(radius: radius))
        }
        /// Two additions and two subtractions a pixel, whatever the radius.
        package func taps(_ shape: NodeShape) -> Double { 4 }
        /// The horizontal pass converts each row of stored samples once, before its running sum, so the input is
        /// never held as rows of working floats of its own.
        package var onSamples: SampleAction { .readsIntoWorking { format, _ in !format.isFloat } }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
