import CKernels
import CWebP
import FilterCore
import Foundation

/// A lossy still read at 1/`factor` (boxes of `factor` × `factor` stored pixels from the top-left corner, the last
/// ones partial), rows on demand: libwebp's incremental decoder writes its full-size RGB rows a band at a time into
/// an anonymous mapping, the boxes of the rows asked for are averaged (`fr_rgb8_box_row`) as soon as their rows are
/// final, and the rows' pages are handed back to the system once read. The result is exactly libwebp's full decode
/// box-averaged, yet neither the full-size picture nor the reduced one is ever resident: a band of each.
final class WebPBoxStream {
    let path: String
    let factor: Int
    let width: Int, height: Int
    private let stored: (width: Int, height: Int)
    private let file: [UInt8]
    private let stride: Int, page: Int, length: Int
    private let rows: UnsafeMutableRawPointer
    private var config = WebPDecoderConfig()
    private var decoder: OpaquePointer?
    private var fed = 0, status = VP8_STATUS_SUSPENDED
    /// Stored rows decoded so far, and the bytes of the mapping already given back.
    private var decoded = 0, released = 0
    /// Output rows delivered.
    private(set) var nextRow = 0

    /// The file in steps of 32 KiB: each step decodes a band of rows (larger steps cost resident rows, smaller ones
    /// cost libwebp more in resuming).
    static let step = 32 << 10

    init(file: [UInt8], path: String, width: Int, height: Int, factor: Int) throws {
        self.file = file
        self.path = path
        self.factor = factor
        stored = (width, height)
        self.width = (width + factor - 1) / factor
        self.height = (height + factor - 1) / factor
        stride = width * 3
        page = Int(sysconf(Int32(_SC_PAGESIZE)))
        length = (max(stride * height, 1) + page - 1) / page * page
        // Pages become resident only as libwebp writes them, and leave with MADV_DONTNEED.
        guard let rows = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), rows != MAP_FAILED else {
            throw CodecError(kind: .tooLarge, path: path, message: "out of memory decoding the WebP image")
        }
        self.rows = rows
        guard WebPInitDecoderConfigInternal(&config, WEBP_DECODER_ABI_VERSION) != 0 else {
            munmap(rows, length)
            throw CodecError(kind: .unsupported, path: path, message: "the WebP library's version does not match its headers")
        }
        config.options.use_threads = 1
        config.output.colorspace = MODE_RGB
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = rows.assumingMemoryBound(to: UInt8.self)
        config.output.u.RGBA.stride = Int32(stride)
        config.output.u.RGBA.size = stride * height
        decoder = WebPIDecode(nil, 0, &config)
        guard decoder != nil else {
            munmap(rows, length)
            throw CodecError(kind: .tooLarge, path: path, message: "out of memory decoding the WebP image")
        }
    }

    deinit {
        if let decoder { WebPIDelete(decoder) }
        munmap(rows, length)
    }

    /// The next `count` output rows into `destination`, `rowStride` bytes apart; `failure` names a libwebp status.
    func read(into destination: UnsafeMutableRawPointer, rowStride: Int, count: Int,
              failure: (VP8StatusCode) -> CodecError) throws {
        let end = nextRow + count
        // Decode until the last box asked for is final (all rows, at the end of the picture).
        while min(end * factor, stored.height) > decoded {
            guard status == VP8_STATUS_SUSPENDED, fed < file.count, let decoder else {
                throw failure(status == VP8_STATUS_SUSPENDED ? VP8_STATUS_NOT_ENOUGH_DATA : status)
            }
            fed = min(file.count, fed + Self.step)
            status = file.withUnsafeBufferPointer { WebPIUpdate(decoder, $0.baseAddress, fed) }
            var last: Int32 = 0
            if status == VP8_STATUS_OK { decoded = stored.height }
            else if WebPIDecGetRGB(decoder, &last, nil, nil, nil) != nil { decoded = Int(last) }
            if status != VP8_STATUS_OK && status != VP8_STATUS_SUSPENDED { throw failure(status) }
        }
        let source = UnsafePointer(rows.assumingMemoryBound(to: UInt8.self))
        let (first, w, h, f, rowStride, stride) = (nextRow, stored.width, stored.height, factor, rowStride, stride)
        WorkerPool.forEachChunk(first..<end) { chunk in
            for row in chunk {
                fr_rgb8_box_row((destination + (row - first) * rowStride).assumingMemoryBound(to: UInt8.self), source, stride, w, h, f, row)
            }
        }
        nextRow = end
        // The rows no later box reads go back to the system.
        let done = min(nextRow * factor, stored.height) * stride / page * page
        if done > released {
            madvise(rows + released, done - released, MADV_DONTNEED)
            released = done
        }
    }
}
