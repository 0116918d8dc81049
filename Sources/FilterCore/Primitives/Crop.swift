extension Primitives {
    /// The node-sized rectangle at (x, y) of the input.
    package struct Crop: SampleMove {
        package var x: Int
        package var y: Int
        package var summary: String { "crop at \(x),\(y)" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: 0, offset: y) }
        package func isIdentity(_ shape: NodeShape) -> Bool {
            x == 0 && y == 0 && shape.input.width == shape.width && shape.input.height == shape.height
        }
    }
}
