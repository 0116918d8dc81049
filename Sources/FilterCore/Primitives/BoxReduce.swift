extension Primitives {
    /// The mean of each x×y block (the decode-time shrink before an exact resample).
    package struct BoxReduce: PrimitiveDescriptor {
        package var x: Int
        package var y: Int
        package var summary: String { "box reduce \(x)×\(y)" }
        package func rowRule(_ shape: NodeShape) -> RowRule {
            let y = self.y
            return .streamed("\(y) input rows a row") { ($0.lowerBound * y)..<($0.upperBound * y) }
        }
        package func taps(_ shape: NodeShape) -> Double { Double(x * y) }
        package var onSamples: SampleAction { .computes }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
