import CJPEGShim
import FilterCore

/// Flips, turns and transposes from a JPEG to a JPEG on the file's own Y, Cb and Cr planes: nothing is upsampled
/// or converted to RGB and back, and the photo is held as its planes (1.5 bytes a pixel for 4:2:0) rather than as
/// RGB rows (3). Chroma keeps its samples where the move keeps their alignment, and is the mean of the two it falls
/// between where it does not (an odd crop offset, a flip of an odd length).
package enum JPEGPlaneMoves {
    /// The planes a move of `decoder`'s planes writes (its luma factors, exchanged when the move swaps the axes),
    /// or nil when the file is not YCbCr with both chroma planes at one sample per luma block.
    package static func layout(of decoder: JPEGDecoder, move: SampleMoveMap) -> JPEGPlaneLayout? {
        guard let reader = decoder.reader, decoder.nextRow == 0, decoder.width == decoder.storedWidth else { return nil }
        var h: Int32 = 0, v: Int32 = 0
        guard fr_jpeg_reader_plane_sampling(reader, &h, &v) != 0 else { return nil }
        return move.swap ? JPEGPlaneLayout(h: Int(v), v: Int(h)) : JPEGPlaneLayout(h: Int(h), v: Int(v))
    }

    /// Decodes the whole of `decoder` as planes, moves them and writes them to `encoder` (opened with `planes` at
    /// the moved size and the layout `layout(of:move:)` answered). The encoder is then ready to finish.
    /// Returns the seconds spent decoding, moving and encoding.
    @discardableResult
    package static func transcode(_ decoder: JPEGDecoder, _ move: SampleMoveMap, into encoder: JPEGEncoder) throws
        -> (decoding: Double, moving: Double, encoding: Double) {
        guard let reader = decoder.reader, let writer = encoder.writer else {
            throw CodecError(kind: .invalidRequest, path: encoder.path, message: "decoder or encoder is closed")
        }
        var map = fr_jpeg_move(swap: move.swap ? 1 : 0, x0: move.x0, y0: move.y0, dx: Int32(move.dx), dy: Int32(move.dy),
                               width: UInt32(move.width), height: UInt32(move.height))
        var message = [CChar](repeating: 0, count: 256)
        var seconds: (Double, Double, Double) = (0, 0, 0)
        let status = withUnsafeMutablePointer(to: &seconds) {
            $0.withMemoryRebound(to: Double.self, capacity: 3) {
                fr_jpeg_transcode_moved(reader, writer, &map, $0, &message, message.count)
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
        default:
            encoder.abandon()
            throw CodecError(kind: .invalidRequest, path: encoder.path, message: String(cString: message))
        }
    }
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
