import CKernels
import CWebP
import FilterCore
import Foundation

/// A lossy still read at 1/`factor` (boxes of `factor` × `factor` stored pixels from the top-left corner, the last
/// ones partial), rows on demand: libwebp's incremental decoder writes its Y'CbCr planes a band at a time into an
/// anonymous mapping, the boxes of the rows asked for are made RGB and averaged (`fr_yuv420_fancy_box_row`, libwebp's
/// own upsampling and conversion to the bit) as soon as their rows are final, and the rows' pages are handed back to
/// the system once read. The result is exactly libwebp's full RGB decode box-averaged, yet neither the full-size
/// picture nor the reduced one is ever resident (a band of each), and the full-size RGB is never written.
final class WebPBoxStream {
    let path: String
    let factor: Int
    let width: Int, height: Int
    private let stored: (width: Int, height: Int)
    private let file: [UInt8]
    /// The mapping: the luma plane, then the two chroma planes (⌈width / 2⌉ × ⌈height / 2⌉), each from a page.
    private let chromaWidth: Int, chromaHeight: Int, lumaLength: Int, chromaLength: Int, page: Int, length: Int
    private let planes: UnsafeMutableRawPointer
    private var config = WebPDecoderConfig()
    private var decoder: OpaquePointer?
    private var fed = 0, status = VP8_STATUS_SUSPENDED
    /// Stored rows decoded so far; luma and chroma rows already given back.
    private var decoded = 0, releasedLuma = 0, releasedChroma = 0
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
        chromaWidth = (width + 1) / 2
        chromaHeight = (height + 1) / 2
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        self.page = page
        func pages(_ bytes: Int) -> Int { (max(bytes, 1) + page - 1) / page * page }
        lumaLength = pages(width * height)
        chromaLength = pages(chromaWidth * chromaHeight)
        length = lumaLength + 2 * chromaLength
        // Pages become resident only as libwebp writes them, and leave with MADV_DONTNEED.
        guard let planes = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), planes != MAP_FAILED else {
            throw CodecError(kind: .tooLarge, path: path, message: "out of memory decoding the WebP image")
        }
        self.planes = planes
        // The luma plane in 2 MiB pages where the system allows: a few faults instead of thousands while libwebp
        // writes it (the chroma planes stay in small pages, so fewer rows of them are resident at once).
        madvise(planes, lumaLength, MADV_HUGEPAGE)
        guard WebPInitDecoderConfigInternal(&config, WEBP_DECODER_ABI_VERSION) != 0 else {
            munmap(planes, length)
            throw CodecError(kind: .unsupported, path: path, message: "the WebP library's version does not match its headers")
        }
        config.options.use_threads = RenderLoad.saturated ? 0 : 1  // a thread an image, not under load
        config.output.colorspace = MODE_YUV
        config.output.is_external_memory = 1
        let base = planes.assumingMemoryBound(to: UInt8.self)
        config.output.u.YUVA.y = base
        config.output.u.YUVA.y_stride = Int32(width)
        config.output.u.YUVA.y_size = width * height
        config.output.u.YUVA.u = base + lumaLength
        config.output.u.YUVA.v = base + lumaLength + chromaLength
        config.output.u.YUVA.u_stride = Int32(chromaWidth)
        config.output.u.YUVA.v_stride = Int32(chromaWidth)
        config.output.u.YUVA.u_size = chromaWidth * chromaHeight
        config.output.u.YUVA.v_size = chromaWidth * chromaHeight
        decoder = WebPIDecode(nil, 0, &config)
        guard decoder != nil else {
            munmap(planes, length)
            throw CodecError(kind: .tooLarge, path: path, message: "out of memory decoding the WebP image")
        }
    }

    deinit {
        if let decoder { WebPIDelete(decoder) }
        munmap(planes, length)
    }

    /// The next `count` output rows into `destination`, `rowStride` bytes apart; `failure` names a libwebp status.
    func read(into destination: UnsafeMutableRawPointer, rowStride: Int, count: Int,
              failure: (VP8StatusCode) -> CodecError) throws {
        let end = nextRow + count
        try decode(through: end, failure: failure)
        let base = UnsafePointer(planes.assumingMemoryBound(to: UInt8.self))
        let band = Band(destination: destination, rowStride: rowStride, rows: nextRow..<end, luma: base,
                        u: base + lumaLength, v: base + lumaLength + chromaLength, chromaWidth: chromaWidth,
                        width: stored.width, height: stored.height, factor: factor)
        // These boxes are averaged on another thread while this one decodes the next band: libwebp's decoding
        // (and its filtering thread) and the averaging share the cores instead of taking turns. Rows of the next
        // band are written below the ones read, never over them; an error there waits for the read that needs them.
        let averaged = DispatchGroup()
        DispatchQueue.global().async(group: averaged) { band.average() }
        try? decode(through: min(end + count, height), failure: failure)
        averaged.wait()
        nextRow = end
        // The rows no later box reads go back to the system: luma above the next box, chroma above the row before
        // its first row's.
        let next = min(nextRow * factor, stored.height)
        release(planes: [0], from: &releasedLuma, to: next * stored.width)
        release(planes: [lumaLength, lumaLength + chromaLength], from: &releasedChroma, to: max(0, next / 2 - 1) * chromaWidth)
    }

    /// Decodes until the boxes of output rows before `end` are final: their rows, and the chroma row below their
    /// last one (libwebp hands chroma rows over with the luma pair they lie between), or the whole picture.
    private func decode(through end: Int, failure: (VP8StatusCode) -> CodecError) throws {
        while min(end * factor + 2, stored.height) > decoded {
            guard status == VP8_STATUS_SUSPENDED, fed < file.count, let decoder else {
                throw failure(status == VP8_STATUS_SUSPENDED ? VP8_STATUS_NOT_ENOUGH_DATA : status)
            }
            fed = min(file.count, fed + Self.step)
            status = file.withUnsafeBufferPointer { WebPIUpdate(decoder, $0.baseAddress, fed) }
            var last: Int32 = 0
            if status == VP8_STATUS_OK { decoded = stored.height }
            else if WebPIDecGetYUVA(decoder, &last, nil, nil, nil, nil, nil, nil, nil, nil) != nil { decoded = Int(last) }
            if status != VP8_STATUS_OK && status != VP8_STATUS_SUSPENDED { throw failure(status) }
        }
    }

    /// Output rows to average from decoded planes, handed to another thread (the planes' rows it reads are final
    /// and nothing writes them while it runs).
    private final class Band: @unchecked Sendable {
        let destination: UnsafeMutableRawPointer, rowStride: Int, rows: Range<Int>
        let luma: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>
        let chromaWidth: Int, width: Int, height: Int, factor: Int

        init(destination: UnsafeMutableRawPointer, rowStride: Int, rows: Range<Int>, luma: UnsafePointer<UInt8>,
             u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>, chromaWidth: Int, width: Int, height: Int, factor: Int) {
            (self.destination, self.rowStride, self.rows, self.luma, self.u, self.v) = (destination, rowStride, rows, luma, u, v)
            (self.chromaWidth, self.width, self.height, self.factor) = (chromaWidth, width, height, factor)
        }

        func average() {
            for row in rows {
                fr_yuv420_fancy_box_row((destination + (row - rows.lowerBound) * rowStride).assumingMemoryBound(to: UInt8.self),
                                        luma, width, u, v, chromaWidth, width, height, factor, row)
            }
        }
    }

    /// Hands back the whole pages below byte `end` not yet given back of the planes starting at `planes` bytes.
    private func release(planes offsets: [Int], from released: inout Int, to end: Int) {
        let done = end / page * page
        guard done > released else { return }
        for offset in offsets { madvise(planes + offset + released, done - released, MADV_DONTNEED) }
        released = done
    }
}
