import CJPEGShim
import FilterCore

/// Flips, turns, transposes and affine resamplings (rotations by any angle) from a JPEG to a JPEG on the file's own
/// Y, Cb and Cr planes: nothing is upsampled or converted to RGB and back, and the photo is held as its planes (1.5
/// bytes a pixel for 4:2:0) rather than as RGB rows (3). Chroma keeps its samples where a move keeps their
/// alignment, and is the mean of the two it falls between where it does not (an odd crop offset, a flip of an odd
/// length); a resampling resamples each plane at its own sample centres.
package enum JPEGPlaneMoves {
    /// The planes a move of `decoder`'s planes writes (its luma factors, exchanged when the move swaps the axes),
    /// or nil when the file is not YCbCr with both chroma planes at one sample per luma block.
    package static func layout(of decoder: JPEGDecoder, move: SampleMoveMap) -> JPEGPlaneLayout? {
        guard let stored = storedLayout(of: decoder) else { return nil }
        return move.swap ? JPEGPlaneLayout(h: stored.v, v: stored.h) : stored
    }

    /// The planes a resampling of `decoder`'s planes writes: its own.
    package static func layout(of decoder: JPEGDecoder, warp: SampleWarp) -> JPEGPlaneLayout? { storedLayout(of: decoder) }

    /// The file's planes when it is YCbCr with both chroma planes at one sample per luma block, unread and decoded
    /// at full size.
    private static func storedLayout(of decoder: JPEGDecoder) -> JPEGPlaneLayout? {
        guard let reader = decoder.reader, decoder.nextRow == 0, decoder.width == decoder.storedWidth,
              decoder.height == decoder.storedHeight else { return nil }
        var h: Int32 = 0, v: Int32 = 0
        guard fr_jpeg_reader_plane_sampling(reader, &h, &v) != 0 else { return nil }
        return JPEGPlaneLayout(h: Int(h), v: Int(v))
    }

    /// Decodes the whole of `decoder` as planes, moves them and writes them to `encoder` (opened with `planes` at
    /// the moved size and the layout `layout(of:move:)` answered). The encoder is then ready to finish.
    /// Returns the seconds spent decoding, moving and encoding.
    @discardableResult
    package static func transcode(_ decoder: JPEGDecoder, _ move: SampleMoveMap, into encoder: JPEGEncoder,
                                  control: RenderControl? = nil) throws
        -> (decoding: Double, moving: Double, encoding: Double) {
        var map = fr_jpeg_move(swap: move.swap ? 1 : 0, x0: move.x0, y0: move.y0, dx: Int32(move.dx), dy: Int32(move.dy),
                               width: UInt32(move.width), height: UInt32(move.height))
        return try run(decoder, encoder, control) { reader, writer, stop, seconds, message, length in
            withUnsafePointer(to: Self.stageThreads) { threads in
                // Moving overlaps decoding on a stage thread, unless every core already has a render.
                fr_jpeg_transcode_moved(reader, writer, &map, RenderLoad.saturated ? nil : threads, stop, seconds, message,
                                        length)
            }
        }
    }

    /// Decodes the whole of `decoder` as planes, resamples each by `warp` on `workers` threads and writes them to
    /// `encoder` (opened with `planes` at the output's size and the layout `layout(of:warp:)` answered): the bands
    /// are resampled while the encoder compresses the ones before. `workers` 0 resamples each band in turn on the
    /// caller's thread (a process with a render on every core, `RenderLoad.saturated`). Returns the seconds spent
    /// decoding, resampling (summed over the threads) and encoding.
    @discardableResult
    package static func transcode(_ decoder: JPEGDecoder, _ warp: SampleWarp, workers: Int, into encoder: JPEGEncoder,
                                  control: RenderControl? = nil) throws -> (decoding: Double, moving: Double, encoding: Double) {
        guard let taps = warp.planeTaps else {
            throw CodecError(kind: .invalidRequest, path: encoder.path, message: "this resampling cannot run on the planes")
        }
        let m = warp.map, background = warp.backgroundCodes
        var request = fr_jpeg_warp()
        request.m = (m.a, m.b, m.c, m.d, m.e, m.f)
        request.taps = Int32(taps)
        request.background = (background[0], background[1], background[2])
        request.width = UInt32(warp.width)
        request.height = UInt32(warp.height)
        return try run(decoder, encoder, control) { reader, writer, stop, seconds, message, length in
            withUnsafePointer(to: Self.stageThreads) { threads in
                fr_jpeg_transcode_warped(reader, writer, &request, Int32(max(1, workers)), workers > 0 ? threads : nil, stop,
                                         seconds, message, length)
            }
        }
    }

    /// The C transcodes' workers run on the process's kept stage threads (`StageThreads`), never threads of their own.
    private static var stageThreads: fr_jpeg_threads {
        fr_jpeg_threads(run: { body, argument, _ in
            let job = TranscodeWorker(body: body, argument: argument)
            StageThreads.run { job.body?(job.argument) }
        }, context: nil)
    }

    /// Runs one of the C transcodes and turns its status into the reader's, the writer's or its own error; a
    /// cancelled `control` stops it between rows of MCUs or bands (`RenderCancelled`).
    private static func run(_ decoder: JPEGDecoder, _ encoder: JPEGEncoder, _ control: RenderControl?,
                            _ body: (OpaquePointer, OpaquePointer, UnsafePointer<fr_jpeg_stop>, UnsafeMutablePointer<Double>,
                                     UnsafeMutablePointer<CChar>, Int) -> Int32)
        throws -> (decoding: Double, moving: Double, encoding: Double) {
        guard let reader = decoder.reader, let writer = encoder.writer else {
            throw CodecError(kind: .invalidRequest, path: encoder.path, message: "decoder or encoder is closed")
        }
        var message = [CChar](repeating: 0, count: 256)
        var seconds: (Double, Double, Double) = (0, 0, 0)
        let length = message.count
        var stop = fr_jpeg_stop()
        if let control {
            stop.context = Unmanaged.passUnretained(control).toOpaque()
            stop.stop = { context in
                guard let context else { return 0 }
                return Unmanaged<RenderControl>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
            }
        }
        let status = withExtendedLifetime(control) {
            withUnsafeMutablePointer(to: &seconds) { times in
                times.withMemoryRebound(to: Double.self, capacity: 3) { times in
                    message.withUnsafeMutableBufferPointer { text in
                        withUnsafePointer(to: &stop) { body(reader, writer, $0, times, text.baseAddress!, length) }
                    }
                }
            }
        }
        switch status {
        case 0:
            encoder.rowsWritten = encoder.height
            return seconds
        case 1:
            let error = decoder.failure()
            encoder.abandon()
            throw error
        case 2:
            let error = encoder.failure()
            encoder.abandon()
            throw error
        case 4:
            encoder.abandon()
            throw RenderCancelled()
        default:
            encoder.abandon()
            throw CodecError(kind: .invalidRequest, path: encoder.path, message: String(cString: message))
        }
    }
}

/// A C worker handed to a stage thread: its function and argument (the transcode's state, which outlives it).
private struct TranscodeWorker: @unchecked Sendable {
    let body: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
    let argument: UnsafeMutableRawPointer?
}

/// How a JPEG's planes are sampled: the luma plane's factors (1 or 2 each) over chroma planes of one sample a block.
package struct JPEGPlaneLayout: Equatable, Sendable {
    package let h: Int, v: Int

    /// The subsampling option that writes this layout; nil for 4:4:0 (luma 1 × 2), which only a turned 4:2:2
    /// photo's planes hold and only the plane path writes.
    package var subsampling: JPEGWriteOptions.Subsampling? {
        switch (h, v) {
        case (1, 1): return .s444
        case (2, 1): return .s422
        case (2, 2): return .s420
        default: return nil
        }
    }

    /// "4:2:0" and so on.
    package var name: String {
        switch (h, v) {
        case (1, 1): return "4:4:4"
        case (2, 1): return "4:2:2"
        case (2, 2): return "4:2:0"
        default: return "4:4:0"
        }
    }
}
