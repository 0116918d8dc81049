/// Something that yields rows of an image top to bottom (a streaming decoder, a buffer in memory).
package protocol ImageRowSource: AnyObject {
    var width: Int { get }
    var height: Int { get }
    var format: PixelFormat { get }
    /// Index of the next row `readRows` returns.
    var nextRow: Int { get }
    func readRows(into destination: UnsafeMutableRawPointer, stride: Int, count: Int) throws
    /// Passes over the next `count` rows (rows above a crop); decoders that can skip work do.
    func skipRows(_ count: Int) throws
}

extension ImageRowSource {
    /// Reads the rows and drops them, a few at a time.
    package func skipRows(_ count: Int) throws {
        let rowBytes = width * format.bytesPerPixel, batch = max(1, min(count, (1 << 20) / max(1, rowBytes)))
        guard count > 0 else { return }
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: batch * rowBytes, alignment: 64)
        defer { scratch.deallocate() }
        var left = count
        while left > 0 {
            let n = min(batch, left)
            try readRows(into: scratch, stride: rowBytes, count: n)
            left -= n
        }
    }
}

/// A source whose rows are stored samples converted to working values (rgba32f) row by row (a colour-managed
/// decoder): a renderer may read the stored rows on its decoder thread and convert them on its workers, so the
/// conversion runs beside decoding instead of after it on the decoder's thread.
package protocol ConvertingRowSource: ImageRowSource {
    /// The rows as stored, before conversion.
    var storedRows: ImageRowSource { get }
    /// Converts `width` stored pixels (a row, or a row of the stored samples after a turn) into working values
    /// (4 floats a pixel); `scratch` holds 3 floats a pixel. Safe to call from several threads at once with
    /// separate scratch.
    func convertRow(_ stored: UnsafeRawPointer, into destination: UnsafeMutablePointer<Float>, width: Int,
                    scratch: UnsafeMutablePointer<Float>)
}

/// Something that takes rows of an image top to bottom (a streaming encoder, a buffer in memory).
package protocol ImageRowSink: AnyObject {
    func writeRows(_ source: UnsafeRawPointer, stride: Int, count: Int) throws
}

/// Serves the rows of a host buffer.
package final class BufferRowSource: ImageRowSource {
    package let buffer: PixelBuffer
    package private(set) var nextRow = 0
    package var width: Int { buffer.width }
    package var height: Int { buffer.height }
    package var format: PixelFormat { buffer.format }

    package init(_ buffer: PixelBuffer) { self.buffer = buffer }

    package func readRows(into destination: UnsafeMutableRawPointer, stride: Int, count: Int) throws {
        let base = try buffer.hostBytes()
        let rowBytes = width * format.bytesPerPixel
        for i in 0..<count {
            (destination + i * stride).copyMemory(from: base + (nextRow + i) * buffer.rowStride, byteCount: rowBytes)
        }
        nextRow += count
    }
}

/// Collects rows into a host buffer.
package final class BufferRowSink: ImageRowSink {
    package let buffer: PixelBuffer
    package private(set) var rowsWritten = 0

    package init(_ buffer: PixelBuffer) { self.buffer = buffer }

    package func writeRows(_ source: UnsafeRawPointer, stride: Int, count: Int) throws {
        let base = try buffer.mutableHostBytes()
        let rowBytes = buffer.width * buffer.format.bytesPerPixel
        for i in 0..<count {
            (base + (rowsWritten + i) * buffer.rowStride).copyMemory(from: source + i * stride, byteCount: rowBytes)
        }
        rowsWritten += count
    }
}
