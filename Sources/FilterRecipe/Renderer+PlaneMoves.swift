import FilterCore
import JPEGCodec

extension Renderer {
    /// A JPEG that a plan only moves (crops, flips, quarter turns, transposes): the decoder, the moves as one map,
    /// and the planes they give (the input's sampling, axes exchanged by a transpose); nil for any other plan or a
    /// file not stored as YCbCr planes. Such an output keeps that subsampling unless one is asked for.
    typealias JPEGMoves = (decoder: JPEGDecoder, move: SampleMoveMap, layout: JPEGPlaneLayout)

    static func jpegMoves(_ plan: Plan, decoders: [String: any ImageDecoder]) -> JPEGMoves? {
        guard let move = SampleMoveMap(plan), case .source(let name) = plan.nodes[move.source].primitive,
              let decoder = decoders[name] as? JPEGDecoder, let layout = JPEGPlaneMoves.layout(of: decoder, move: move)
        else { return nil }
        return (decoder, move, layout)
    }

    /// Whether `moves` run on the file's Y, Cb, Cr planes (`JPEGPlaneMoves`): when they read out of order (a
    /// vertical flip, a turn, a transpose — a horizontal flip or a crop alone streams rows on the row path), the
    /// samples reach the output unconverted and the output's subsampling is the planes'.
    static func movesPlanes(_ moves: JPEGMoves, plan: Plan, format: PixelFormat, outputProfile: ColourProfile?,
                            subsampling: JPEGWriteOptions.Subsampling?) -> Bool {
        guard moves.move.holdsWhole, format == .rgb8, outputProfile == nil,
              case .samples = plan.nodes[moves.move.source].representation
        else { return false }
        return subsampling == nil || subsampling == moves.layout.subsampling
    }

    /// `--explain`'s line for a plan whose moves would run on the planes with a JPEG output.
    static func planeMoveNote(_ plan: Plan, decoders: [String: any ImageDecoder]) -> String? {
        guard let moves = jpegMoves(plan, decoders: decoders),
              movesPlanes(moves, plan: plan, format: .rgb8, outputProfile: nil, subsampling: nil)
        else { return nil }
        let name = moves.layout.name
        return "JPEG output: the moves run on the file's Y, Cb, Cr planes (\(name), 1–3 bytes a pixel held, no colour "
            + "conversion either way) when the output is a JPEG at \(name)"
    }
}
