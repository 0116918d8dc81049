import CKernels
import FilterCore

/// A chain of per-channel steps on stored samples as one lookup table a colour channel. Each entry is what the
/// working-value path gives for that sample — decoded, taken through the steps, encoded back — so the table
/// reproduces it exactly while reading one byte (or two) a sample instead of sixteen.
final class SampleTable {
    let format: PixelFormat
    /// Colour channels × 2^depth entries, channel after channel (UInt8 or UInt16 as the format's samples).
    private let entries: UnsafeMutableRawPointer

    init(_ ops: [PointOp], format: PixelFormat, space: WorkingSpace) {
        self.format = format
        let codes = format.depth == 8 ? 256 : 65536
        let channels = format.channels, colours = format.hasAlpha ? channels - 1 : channels
        let converter = PixelConverter(format: format, space: space)
        let stored = UnsafeMutableRawPointer.allocate(byteCount: codes * format.bytesPerPixel, alignment: 64)
        let working = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: codes)
        defer { stored.deallocate(); working.deallocate() }
        // Row v holds the sample v in every colour channel, opaque.
        for v in 0..<codes {
            for c in 0..<channels {
                let value = c < colours ? v : codes - 1
                if codes == 256 {
                    stored.storeBytes(of: UInt8(value), toByteOffset: v * channels + c, as: UInt8.self)
                } else {
                    stored.storeBytes(of: UInt16(value), toByteOffset: 2 * (v * channels + c), as: UInt16.self)
                }
            }
        }
        let floats = UnsafeMutableRawPointer(working).assumingMemoryBound(to: Float.self)
        converter.decode(stored, into: floats, width: codes)
        PointKernel.run(ops, from: working, to: working, y: 0, width: codes, height: 1)
        converter.encode(floats, into: stored, width: codes)
        entries = UnsafeMutableRawPointer.allocate(byteCount: colours * codes * format.bytesPerSample, alignment: 64)
        for c in 0..<colours {
            for v in 0..<codes {
                if codes == 256 {
                    entries.storeBytes(of: stored.load(fromByteOffset: v * channels + c, as: UInt8.self),
                                       toByteOffset: c * codes + v, as: UInt8.self)
                } else {
                    entries.storeBytes(of: stored.load(fromByteOffset: 2 * (v * channels + c), as: UInt16.self),
                                       toByteOffset: 2 * (c * codes + v), as: UInt16.self)
                }
            }
        }
    }

    deinit { entries.deallocate() }

    /// Maps `pixels` pixels at `source` into `destination` (which may be `source`), on the workers.
    func apply(_ source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, pixels: Int) {
        let format = format, entries = entries, bpp = format.bytesPerPixel
        let channels = Int32(format.channels), alpha: Int32 = format.hasAlpha ? 1 : 0
        WorkerPool.forEachChunk(0..<pixels, minChunk: 1 << 15) { chunk in
            let from = source + chunk.lowerBound * bpp, to = destination + chunk.lowerBound * bpp
            if format.depth == 8 {
                fr_lookup8(to.assumingMemoryBound(to: UInt8.self), from.assumingMemoryBound(to: UInt8.self),
                           chunk.count, channels, alpha, entries.assumingMemoryBound(to: UInt8.self))
            } else {
                fr_lookup16(to.assumingMemoryBound(to: UInt16.self), from.assumingMemoryBound(to: UInt16.self),
                            chunk.count, channels, alpha, entries.assumingMemoryBound(to: UInt16.self))
            }
        }
    }

    func apply(_ rows: UnsafeMutableRawPointer, pixels: Int) { apply(rows, to: rows, pixels: pixels) }
}
