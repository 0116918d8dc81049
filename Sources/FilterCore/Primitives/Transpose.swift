extension Primitives {
    /// Rows become columns: out(x, y) = in(y, x).
    package struct Transpose: SampleMove {
        package var summary: String { "transpose" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .whole(height: shape.input.height) }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
    }
}
