extension Primitives {
    /// Per-pixel steps on straight colour, in order, in one pass.
    package struct PointSteps: PrimitiveDescriptor {
        package var ops: [PointOp]
        package var summary: String { "per-pixel ×\(ops.count)" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: 0) }
        package func taps(_ shape: NodeShape) -> Double { Double(ops.count) }
        package var onSamples: SampleAction { .perPixel(ops) }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { ops.reduce(inputs[0]) { $1.keepsNeutral(from: $0) } }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool {
            inputs[0] || ops.contains(where: \.changesAlpha)
        }
        /// A step function (threshold, posterize) turns a rounding of its input into a whole step.
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { ops.contains(where: \.isStep) }
    }
}
