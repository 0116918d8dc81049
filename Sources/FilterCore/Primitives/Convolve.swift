extension Primitives {
    /// A square odd kernel applied as a correlation, with W3C feConvolveMatrix's alpha rules.
    package struct Convolve: PrimitiveDescriptor {
        package var kernel: [Float]
        package var size: Int
        package var bias: Float
        package var preserveAlpha: Bool
        package var summary: String { "convolution \(size)×\(size)" }
        package func rowRule(_ shape: NodeShape) -> RowRule { .window(reach: size / 2) }
        package func taps(_ shape: NodeShape) -> Double { Double(size * size) }
        /// On stored samples without alpha the stage converts each row as it pads it: straight and premultiplied
        /// colour are the same there, and the photo is never held as rows of working floats of its own.
        package var onSamples: SampleAction { .readsIntoWorking { format, _ in !format.isFloat && !format.hasAlpha } }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        /// Convolving alpha scales it by the kernel's sum.
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool {
            inputs[0] || (!preserveAlpha && abs(kernel.reduce(0, +) - 1) > 1e-6)
        }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { true }
    }
}
