import FilterCore

/// The leading per-channel steps of a chain on opaque 8-bit samples, folded into the conversion to working values:
/// each colour code's working value after those steps, one table a channel, so a row turns into working values already
/// taken through them (a levels' power curve, a tone curve, a channel gain) for the cost of the plain conversion, and
/// only the steps that mix channels or read the position run per pixel.
///
/// The entries are computed by the same row kernel the pixels would go through (on a row holding every code, opaque),
/// and a per-channel step's result for a channel depends on that channel's value alone, so the working values are the
/// unfolded chain's to the bit (`SampleRepresentationTests.testPerChannelPrefixFoldsIntoTheConversion`).
struct FoldedDecode {
    /// The steps left to run on each pixel.
    let rest: [PointOp]
    private let channels: Int
    /// RGB: the three channels' entries summed (`ChannelSumTable`); grey: one working pixel a code.
    private let sums: ChannelSumTable?
    private let grey: [SIMD4<Float>]

    /// Nil where nothing folds: no leading per-channel step, or samples that are not opaque 8-bit grey or RGB (alpha
    /// would need the steps on straight colour, premultiplied after; 16-bit codes make a 1 MiB table a channel).
    init?(_ ops: [PointOp], stored: PixelFormat, space: WorkingSpace) {
        let folded = ops.prefix(while: \.isPerChannel).count
        guard folded > 0, stored == .rgb8 || stored == .grey8 else { return nil }
        rest = Array(ops[folded...])
        channels = stored.channels
        // Row v holds the code v in every channel.
        var codes = [UInt8](repeating: 0, count: 256 * channels)
        for v in 0..<256 { for c in 0..<channels { codes[v * channels + c] = UInt8(v) } }
        var working = [SIMD4<Float>](repeating: SIMD4(), count: 256)
        working.withUnsafeMutableBufferPointer { pixels in
            let floats = UnsafeMutableRawPointer(pixels.baseAddress!).assumingMemoryBound(to: Float.self)
            codes.withUnsafeBytes { PixelConverter(format: stored, space: space).decode($0.baseAddress!, into: floats, width: 256) }
            PointKernel.run(Array(ops[..<folded]), from: pixels.baseAddress!, to: pixels.baseAddress!, y: 0, width: 256,
                            height: 1)
        }
        if channels == 3 {
            sums = ChannelSumTable(curves: (0..<3).map { c in working.map { $0[c] } },
                                   columns: [SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0)])
            grey = []
        } else {
            sums = nil
            grey = working
        }
    }

    /// Converts `width` pixels at `source` into working values taken through the folded steps.
    func decode(_ source: UnsafeRawPointer, into destination: UnsafeMutablePointer<SIMD4<Float>>, width: Int) {
        let codes = source.assumingMemoryBound(to: UInt8.self)
        if let sums {
            sums.convert(codes, channels: channels, into: UnsafeMutableRawPointer(destination).assumingMemoryBound(to: Float.self),
                         count: width)
            return
        }
        grey.withUnsafeBufferPointer { table in
            for x in 0..<width { destination[x] = table[Int(codes[x])] }
        }
    }
}

/// A row of stored samples taken through a chain: converted with the chain's per-channel prefix folded in where one
/// folds (`FoldedDecode`), else converted plainly, then the steps left run on the working values. What both a
/// per-pixel node reading samples and one writing them do with each row.
struct SampleChain {
    let decoder: PixelConverter
    let folded: FoldedDecode?
    /// The kernels of the steps left to run on each row.
    private let rest: CPUPointOps

    init(_ ops: [PointOp], stored: PixelFormat, space: WorkingSpace) {
        decoder = PixelConverter(format: stored, space: space)
        folded = FoldedDecode(ops, stored: stored, space: space)
        rest = CPUPointOps(folded?.rest ?? ops)
    }

    /// Row `y` (`width` pixels at `source`) into working values at `out`.
    func run(_ source: UnsafeRawPointer, into out: UnsafeMutablePointer<SIMD4<Float>>, y: Int, width: Int, height: Int) {
        if let folded {
            folded.decode(source, into: out, width: width)
        } else {
            decoder.decode(source, into: UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self), width: width)
        }
        if !rest.isEmpty { PointKernel.run(rest, from: out, to: out, y: y, width: width, height: height) }
    }
}
