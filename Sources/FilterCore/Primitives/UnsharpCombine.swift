extension Primitives {
    /// Inputs (original, blurred): C += amount·(C − C_blurred) where the difference reaches the threshold.
    package struct UnsharpCombine: PrimitiveDescriptor {
        package var amount: Float
        package var threshold: Float
        package var summary: String { "unsharp combine ×\(amount)" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: 0) }
        package func taps(_ shape: NodeShape) -> Double { 1 }
        /// On opaque 8-bit samples in the sRGB working space, with its blur in fixed point, in integers too.
        package var onSamples: SampleAction { .combinesFixedPoint { format, space in samplesAreWorkingValues(format, space) } }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs.allSatisfy { $0 } }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs.contains(true) }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { true }
    }
}
