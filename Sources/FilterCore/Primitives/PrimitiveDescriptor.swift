/// What everything outside the backends knows of one primitive — the region rule, the work estimate, `--explain`,
/// the representation planner, the output's alpha and colour checks and the GPU's storage choice all read it here.
/// One conforming type per primitive in this folder, reached through `Primitive.descriptor`. The protocol has no
/// defaults: a new primitive answers each question or does not compile (the sample moves share theirs by opting in
/// to `SampleMove`).
package protocol PrimitiveDescriptor: Sendable {
    /// One line for `--explain`.
    var summary: String { get }
    /// Which rows of its inputs it reads for a band of its own rows.
    func rowRule(_ shape: NodeShape) -> RowRule
    /// Input samples read per output pixel: the work estimate's unit.
    func taps(_ shape: NodeShape) -> Double
    /// What it can do with stored 8/16-bit samples instead of working floats (the representations it accepts).
    var onSamples: SampleAction { get }
    /// Whether its result has R = G = B in every pixel, given which of its inputs have. Conservative: false where
    /// it might make colour.
    func keepsNeutral(_ inputs: [Bool]) -> Bool
    /// Whether its result may be transparent anywhere, given which of its inputs may be.
    func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool
    /// Whether it changes no pixel at this shape (a resample to the same size, a crop of the whole frame, a pad of
    /// nothing): the optimizer bypasses it.
    func isIdentity(_ shape: NodeShape) -> Bool
    /// Whether it amplifies small differences of what it reads (sharpening, gradients, steps), so that half-float
    /// storage's rounding would show in its result.
    var amplifiesDifferences: Bool { get }
}

/// A node's size and its inputs' sizes: what a descriptor's answers depend on beyond its parameters.
package struct NodeShape: Sendable {
    package var width: Int
    package var height: Int
    package var inputs: [Size]

    package struct Size: Sendable {
        package var width: Int
        package var height: Int
    }

    package init(width: Int, height: Int, inputs: [Size]) {
        self.width = width
        self.height = height
        self.inputs = inputs
    }

    /// The first input's size, or the node's own for a node without inputs.
    package var input: Size { inputs.first ?? Size(width: width, height: height) }
}

extension NodeShape {
    /// The shape of `nodes[index]`.
    package init(of index: Int, in nodes: [Plan.Node]) {
        let node = nodes[index]
        self.init(width: node.width, height: node.height,
                  inputs: node.inputs.map { Size(width: nodes[$0].width, height: nodes[$0].height) })
    }
}

extension Plan {
    /// The shape of node `index`.
    package func shape(of index: Int) -> NodeShape { NodeShape(of: index, in: nodes) }
}

/// What a primitive can do on stored samples (`Plan.choosingRepresentations` decides whether it pays).
package enum SampleAction: Sendable {
    /// It is the stored samples (a source).
    case stored
    /// It moves samples without changing them (crop, flips, turns, transpose).
    case moves
    /// It moves samples and fills the rest with a colour, exact only where the samples hold that colour (pad).
    case movesFilling(RGBA)
    /// Per channel, it picks one of its input's values (median, morphology): exact on samples without alpha.
    case picks
    /// Where `reads` holds for the input's sample format, it reads samples through a table into working values
    /// itself, and its result may round to them once, as the output would (`Primitive.readsSamples`).
    case readsThroughTable(_ reads: @Sendable (PixelFormat) -> Bool)
    /// Where `reads` holds for the input's sample format in the working space, it reads samples into working values
    /// itself, and its result stays working values (a vertical resample: the samples of its input are never
    /// converted as rows of their own).
    case readsIntoWorking(_ reads: @Sendable (PixelFormat, WorkingSpace) -> Bool)
    /// Where `fixedPoint` holds for the input's sample format in the working space at the node's shape (opaque
    /// 8-bit samples that are their own working values, `samplesAreWorkingValues`), it filters them in integer
    /// arithmetic and its result rounds to them once, as the output would; elsewhere it reads samples as
    /// `.readsIntoWorking(otherwise)`.
    case fixedPoint(_ fixedPoint: @Sendable (PixelFormat, WorkingSpace, NodeShape) -> Bool,
                    otherwise: @Sendable (PixelFormat, WorkingSpace) -> Bool)
    /// Where its input is the first pass of a two-pass filter on samples for which `holds` (a horizontal resample
    /// before a vertical one), that pass keeps its fixed-point result unrounded (`Representation.fixedPoint`) and
    /// this one finishes it in integers, rounding to samples once, as the output would; where its input is
    /// samples, it reads them as `.readsIntoWorking(otherwise)`.
    case finishesFixedPoint(_ holds: @Sendable (PixelFormat, WorkingSpace, NodeShape) -> Bool,
                            otherwise: @Sendable (PixelFormat, WorkingSpace) -> Bool)
    /// It combines its first input's samples with its second, a fixed-point blur of them held unrounded
    /// (`Representation.fixedPoint`), where `holds` for the samples' format in the working space, and rounds its
    /// result to samples once, as the output would (an unsharp mask).
    case combinesFixedPoint(_ holds: @Sendable (PixelFormat, WorkingSpace) -> Bool)
    /// Per-pixel steps: one table a channel where they are per channel, else each row's working values in cache.
    case perPixel([PointOp])
    /// It mixes its inputs pixel by pixel (a blend): where its inputs are samples no profile converts (or working
    /// values, a generated image), each input row held as samples is converted to working values in cache and the
    /// result rounded once to the output's samples there.
    case mixesPixels
    /// It computes new values from working floats.
    case computes
}
