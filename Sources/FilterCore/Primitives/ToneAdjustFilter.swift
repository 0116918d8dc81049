extension Primitives {
    /// Inputs (image, base lightness): shadows, highlights and detail against the base (`ToneAdjust`).
    package struct ToneAdjustFilter: PrimitiveDescriptor {
        package var tone: ToneAdjust
        package var summary: String {
            "local tone (shadows \(tone.shadows), highlights \(tone.highlights), detail \(tone.detail))"
        }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: 0) }
        package func taps(_ shape: NodeShape) -> Double { 8 }
        package var onSamples: SampleAction { .computes }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs.allSatisfy { $0 } }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs.contains(true) }
        /// Its detail gain amplifies the difference from the base.
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { true }
    }
}
