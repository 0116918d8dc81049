extension Primitives {
    /// Horizontal then vertical convolution with odd, centred, normalised taps; edges clamp.
    package struct SeparableConvolution: PrimitiveDescriptor {
        package var horizontal: [Float]
        package var vertical: [Float]
        package var summary: String { "separable convolution, \(horizontal.count) taps" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: vertical.count / 2) }
        package func taps(_ shape: NodeShape) -> Double { Double(horizontal.count + vertical.count) }
        /// The horizontal pass converts each row of stored samples as it pads it (it copied working values before),
        /// so the input is never held as rows of working floats of its own.
        package var onSamples: SampleAction { .readsIntoWorking { format, _ in !format.isFloat } }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
