/// The primitives that move samples without changing them (crop, flips, turns, transpose) answer alike for all but
/// their rows, summary and identity: one input sample a pixel, exact on stored samples, colour and alpha as the input's.
/// A primitive opts in by conforming; nothing else takes these answers.
package protocol SampleMove: PrimitiveDescriptor {}

extension SampleMove {
    package func taps(_ shape: NodeShape) -> Double { 1 }
    package var onSamples: SampleAction { .moves }
    package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] }
    package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool { inputs[0] }
    package var amplifiesDifferences: Bool { false }
}
