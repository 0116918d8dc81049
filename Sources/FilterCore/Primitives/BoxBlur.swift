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
        /// On opaque 8-bit samples in the sRGB working space the running sums are integers (exact: a row's sum of
        /// up to 257 codes fits 16 bits, a window's 32), and the mean rounds to samples. Elsewhere the horizontal
        /// pass converts each row of stored samples once, before its running sum, so the input is never held as
        /// rows of working floats of its own.
        package var onSamples: SampleAction {
            let fits = radius <= Self.fixedPointRadius
            return .fixedPoint({ format, space, _ in fits && samplesAreWorkingValues(format, space) },
                               otherwise: { format, _ in !format.isFloat })
        }
        /// The widest window whose row sums of 8-bit codes fit 16 bits: 257 × 255 = 65535.
        package static let fixedPointRadius = 128
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
