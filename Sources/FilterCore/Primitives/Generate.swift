extension Primitives {
    /// An image made from parameters alone (`Generator`); its input, if any, only gives the size.
    package struct Generate: PrimitiveDescriptor {
        package var generator: Generator
        package var summary: String { "generate" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .none("generated in strips") }
        package func taps(_ shape: NodeShape) -> Double { 1 }
        package var onSamples: SampleAction { .computes }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool {
            switch generator {
            case .solid(let c): return c.isNeutral
            case .text(let block): return block.color.isNeutral
            case .linear(_, _, _, _, let a, let b), .radial(_, _, _, let a, let b), .checkerboard(_, let a, let b):
                return a.isNeutral && b.isNeutral
            }
        }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool {
            switch generator {
            case .solid(let c): return c.a < 1
            case .text: return true  // transparent around the glyphs
            case .linear(_, _, _, _, let a, let b), .radial(_, _, _, let a, let b), .checkerboard(_, let a, let b):
                return a.a < 1 || b.a < 1
            }
        }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
