extension Primitives {
    /// The luminance's 3×3 Sobel gradient magnitude as grey, alpha 1.
    package struct Sobel: PrimitiveDescriptor {
        package var summary: String { "sobel" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: 1) }
        package func taps(_ shape: NodeShape) -> Double { 9 }
        /// Reads integer samples without alpha itself (each row converted in cache on its way to luminance, where
        /// working floats would be a strip of their own), and its grey result rounds to them once, as the output
        /// would: the float path's arithmetic, without its rows of floats on either side.
        package var onSamples: SampleAction { .readsThroughTable { format in !format.isFloat && !format.hasAlpha } }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { true }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { false }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { true }
    }
}
