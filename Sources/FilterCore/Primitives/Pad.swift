extension Primitives {
    /// The input placed at (left, top) on a node-sized canvas of `color`.
    package struct Pad: PrimitiveDescriptor {
        package var top: Int
        package var left: Int
        package var color: RGBA
        package var summary: String { "pad" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: 0, offset: -top) }
        package func taps(_ shape: NodeShape) -> Double { 1 }
        package var onSamples: SampleAction { .movesFilling(color) }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] && color.isNeutral }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] || color.a < 1 }
        package func isIdentity(_ shape: NodeShape) -> Bool {
            top == 0 && left == 0 && shape.input.width == shape.width && shape.input.height == shape.height
        }
        package var amplifiesDifferences: Bool { false }
    }
}
