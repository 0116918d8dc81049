import FilterCore
import JPEGCodec

extension Renderer {
    /// A JPEG written as a JPEG by moves alone that read out of order (vertical flips, quarter turns, transposes,
    /// crops among them): the moves run on the file's Y, Cb, Cr planes (`JPEGPlaneMoves`) when its samples reach
    /// the output unconverted and the output's chroma subsampling is the input's (axes exchanged by a transpose).
    /// A horizontal flip or a crop alone streams rows and stays on the row path (keeping the subsampling too).
    static func planeMove(_ plan: Plan, decoders: [String: any ImageDecoder], format: PixelFormat,
                          outputProfile: ColourProfile?, subsampling: JPEGWriteOptions.Subsampling?)
        -> (decoder: JPEGDecoder, move: SampleMoveMap, layout: JPEGPlaneLayout)? {
        guard format == .rgb8, outputProfile == nil, let move = SampleMoveMap(plan), move.holdsWhole,
              case .source(let name) = plan.nodes[move.source].primitive,
              case .samples = plan.nodes[move.source].representation,
              let decoder = decoders[name] as? JPEGDecoder,
              let layout = JPEGPlaneMoves.layout(of: decoder, move: move),
              subsampling == nil || subsampling == layout.subsampling
        else { return nil }
        return (decoder, move, layout)
    }

    /// The chroma subsampling of the JPEG a plan only moves (crops, flips, turns, transposes), as its planes hold it
    /// after the move; nil for any other plan, a file not stored as YCbCr planes, or a turned 4:2:2 (4:4:0, which
    /// only the plane path writes).
    static func keptSubsampling(_ plan: Plan, decoders: [String: any ImageDecoder]) -> JPEGWriteOptions.Subsampling? {
        guard let move = SampleMoveMap(plan), case .source(let name) = plan.nodes[move.source].primitive,
              let decoder = decoders[name] as? JPEGDecoder
        else { return nil }
        return JPEGPlaneMoves.layout(of: decoder, move: move)?.subsampling
    }

    /// `--explain`'s line for a plan `planeMove` would take with a JPEG output.
    static func planeMoveNote(_ plan: Plan, decoders: [String: any ImageDecoder]) -> String? {
        guard let (_, _, layout) = planeMove(plan, decoders: decoders, format: .rgb8, outputProfile: nil, subsampling: nil)
        else { return nil }
        let name = layout.name
        return "JPEG output: the moves run on the file's Y, Cb, Cr planes (\(name), 1–3 bytes a pixel held, no colour "
            + "conversion either way) when the output is a JPEG at \(name)"
    }
}
