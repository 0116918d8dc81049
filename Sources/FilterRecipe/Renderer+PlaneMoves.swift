import FilterCore
import JPEGCodec

extension Renderer {
    /// What a JPEG-to-JPEG plan does to the file's planes: moves them (crops, flips, quarter turns, transposes) or
    /// resamples each (a rotation by any angle, a shear, an enlargement in the sRGB working space).
    enum PlaneWork {
        case move(SampleMoveMap)
        case warp(SampleWarp)

        var source: Int {
            switch self {
            case .move(let move): return move.source
            case .warp(let warp): return warp.source
            }
        }
    }

    /// A JPEG that a plan only moves or resamples by a map that shrinks nowhere: the decoder, the work, and the
    /// planes it gives (the input's sampling, axes exchanged by a transpose); nil for any other plan or a file not
    /// stored as YCbCr planes. Such an output keeps the input's subsampling unless one is asked for: neither moving
    /// nor such a resampling makes chroma finer than the file holds it.
    typealias JPEGPlanes = (decoder: JPEGDecoder, work: PlaneWork, layout: JPEGPlaneLayout)

    static func jpegPlanes(_ plan: Plan, decoders: [String: any ImageDecoder]) -> JPEGPlanes? {
        if let move = SampleMoveMap(plan), case .source(let name) = plan.nodes[move.source].primitive,
           let decoder = decoders[name] as? JPEGDecoder, let layout = JPEGPlaneMoves.layout(of: decoder, move: move) {
            return (decoder, .move(move), layout)
        }
        if let warp = SampleWarp(plan), case .source(let name) = plan.nodes[warp.source].primitive,
           let decoder = decoders[name] as? JPEGDecoder, let layout = JPEGPlaneMoves.layout(of: decoder, warp: warp) {
            return (decoder, .warp(warp), layout)
        }
        return nil
    }

    /// Whether `planes` run on the file's Y, Cb, Cr planes (`JPEGPlaneMoves`), the samples reaching the output
    /// unconverted at the planes' subsampling (`options` as the output is written: the input's subsampling unless
    /// another is asked for): moves that read out of order (a vertical flip, a turn, a transpose — a horizontal flip
    /// or a crop alone streams rows on the row path), and a resampling on the CPU that `SampleWarp.planeTaps` allows.
    static func runsOnPlanes(_ planes: JPEGPlanes, plan: Plan, format: PixelFormat, outputProfile: ColourProfile?,
                             options: JPEGWriteOptions, backend: Backend) -> Bool {
        guard format == .rgb8, outputProfile == nil, case .samples = plan.nodes[planes.work.source].representation
        else { return false }
        switch planes.work {
        case .move(let move):
            return move.holdsWhole && (options.subsampling == nil || options.subsampling == planes.layout.subsampling)
        case .warp(let warp):
            return warp.planeTaps != nil && backend == .cpu
                && (options.subsampling == nil || options.subsampling == planes.layout.subsampling)
        }
    }

    /// `--explain`'s line for a plan that would run on the planes with a JPEG output.
    static func planeNote(_ plan: Plan, decoders: [String: any ImageDecoder], options: JPEGWriteOptions,
                          backend: Backend) -> String? {
        guard let planes = jpegPlanes(plan, decoders: decoders),
              runsOnPlanes(planes, plan: plan, format: .rgb8, outputProfile: nil, options: options, backend: backend)
        else { return nil }
        let name = planes.layout.name
        switch planes.work {
        case .move:
            return "JPEG output: the moves run on the file's Y, Cb, Cr planes (\(name), 1–3 bytes a pixel held, no colour "
                + "conversion either way) when the output is a JPEG at \(name)"
        case .warp:
            return "JPEG output: the resampling runs on each of the file's Y, Cb, Cr planes (\(name), 1.5–3 bytes a "
                + "pixel held, no colour conversion either way) when the output is a JPEG at \(name)"
        }
    }
}
