extension Primitives {
    /// Horizontal then vertical convolution with odd, centred, normalised taps; edges clamp.
    package struct SeparableConvolution: PrimitiveDescriptor {
        package var horizontal: [Float]
        package var vertical: [Float]
        package var summary: String { "separable convolution, \(horizontal.count) taps" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: vertical.count / 2) }
        package func taps(_ shape: NodeShape) -> Double { Double(horizontal.count + vertical.count) }
        /// On opaque 8-bit samples in the sRGB working space, with taps that have fixed-point weights (a Gaussian
        /// up to σ 8), both passes run in integers and the result rounds to samples. Elsewhere the horizontal pass
        /// converts each row of stored samples as it pads it, so the input is never held as rows of working floats
        /// of its own.
        package var onSamples: SampleAction {
            let fixed = FixedPointTaps(horizontal) != nil && FixedPointTaps(vertical) != nil
            return .fixedPoint({ format, space, _ in fixed && samplesAreWorkingValues(format, space) },
                               otherwise: { format, _ in !format.isFloat })
        }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
