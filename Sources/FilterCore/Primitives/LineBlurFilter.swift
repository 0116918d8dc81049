extension Primitives {
    /// The mean of bilinear samples along a segment through each pixel (`LineBlur`: motion and zoom).
    package struct LineBlurFilter: PrimitiveDescriptor {
        package var blur: LineBlur
        package var summary: String {
            switch blur.path {
            case .motion(_, _, let count): return "motion blur, \(count) samples"
            case .zoom: return "zoom blur"
            }
        }
        package func rowRule(_ shape: NodeShape) -> RowRule {
            let blur = self.blur
            switch blur.path {
            case .motion: return .window(reach: blur.inputRows(for: 0..<1).hi - 1)
            case .zoom:
                return .streamed("the rows toward the centre") { rows in
                    let needed = blur.inputRows(for: rows)
                    return needed.lo..<needed.hi
                }
            }
        }
        /// Four bilinear taps a sample.
        package func taps(_ shape: NodeShape) -> Double { 4 * blur.meanSamples(width: shape.width, height: shape.height) }
        package var onSamples: SampleAction { .computes }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
