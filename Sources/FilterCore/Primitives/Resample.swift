extension Primitives {
    /// Resampling along one axis to the node's size, optionally of a box-reduced input (`BoxReduction`).
    package struct Resample: PrimitiveDescriptor {
        package var axis: Primitive.Axis
        package var kernel: ResampleKernel
        package var reduced: BoxReduction?
        package var summary: String {
            "\(kernel.rawValue) resample \(axis.rawValue)" + (reduced.map { " (of a 1/\($0.factor) box reduction)" } ?? "")
        }
        package func rowRule(_ shape: NodeShape) -> RowRule {
            guard axis == .vertical else { return .window(reach: 0) }
            let weights = ResampleWeights(kernel: kernel, inSize: shape.input.height, outSize: shape.height, reduced: reduced)
            return .streamed("the rows its taps reach") { weights.inputRange(for: $0) }
        }
        /// The kernel's width, widened by the shrink.
        package func taps(_ shape: NodeShape) -> Double {
            let ratio = axis == .horizontal ? Double(shape.input.width) / Double(shape.width)
                                            : Double(shape.input.height) / Double(shape.height)
            return 2 * kernel.radius * max(1, ratio)
        }
        /// On opaque 8-bit samples in the sRGB working space, with few enough taps (`FixedPointResample`: an
        /// enlargement, a slight shrink), the horizontal pass runs in integers and, followed by the vertical one,
        /// keeps its result unrounded for it; the vertical pass finishes in integers and rounds to samples once.
        /// Otherwise, in the sRGB working space the vertical pass reads 8-bit samples without alpha itself (a code's
        /// value is code / 255), so a shrink's input (a photo, a crop of it) is never converted to rows of working
        /// floats of its own. Not in linear light: each tap would look its codes up again (a gather), where
        /// converting each row once is cheaper (a 20 MP photo halved: 0.12 → 0.22 s). The horizontal pass reads
        /// any integer samples, converting each row once in cache as a strip of its own would.
        package var onSamples: SampleAction {
            let (axis, kernel, reduced) = (axis, kernel, reduced)
            let fits: @Sendable (PixelFormat, WorkingSpace, NodeShape) -> Bool = { format, space, shape in
                let (input, output) = axis == .horizontal ? (shape.input.width, shape.width) : (shape.input.height, shape.height)
                return samplesAreWorkingValues(format, space)
                    && FixedPointResample.fits(kernel: kernel, inSize: input, outSize: output, reduced: reduced)
            }
            guard axis == .vertical else { return .fixedPoint(fits, otherwise: { format, _ in !format.isFloat }) }
            return .finishesFixedPoint(fits) { format, space in
                space == .srgb && format.depth == 8 && !format.isFloat && !format.hasAlpha
            }
        }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
        package func isIdentity(_ shape: NodeShape) -> Bool {
            axis == .horizontal ? shape.input.width == shape.width : shape.input.height == shape.height
        }
        package var amplifiesDifferences: Bool { false }
    }
}
