import CWebP
import FilterCore

/// What a WebP file's RIFF chunks say, read by libwebp's demuxer (which allocates nothing by the declared sizes):
/// the canvas, the format flags, the frames and loop count, and the ICCP, EXIF and XMP chunks. The still decoder
/// and the animation reader both check it against the limits before libwebp decodes anything.
struct WebPHeader {
    let width: Int, height: Int
    let flags: UInt32
    let frameCount: Int
    let loopCount: Int
    let icc: [UInt8]?, exif: [UInt8]?, xmp: [UInt8]?

    /// Reads the header of `bytes`; a file cut short or malformed is a `CodecError` naming `path`.
    init(_ bytes: [UInt8], path: String) throws {
        var state = WEBP_DEMUX_PARSING_HEADER
        let demux: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            return WebPDemuxInternal(&data, 1, &state, WEBP_DEMUX_ABI_VERSION)
        }
        guard let demux else { throw CodecError(kind: .corrupt, path: path, message: "corrupt WebP: its RIFF structure cannot be read") }
        defer { WebPDemuxDelete(demux) }
        guard state == WEBP_DEMUX_DONE else {
            throw CodecError(kind: .corrupt, path: path, message: state == WEBP_DEMUX_PARSE_ERROR
                             ? "corrupt WebP: its RIFF structure cannot be read"
                             : "truncated: the file ends before the end of its WebP data")
        }
        width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
        height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
        flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS)
        frameCount = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
        loopCount = Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT))
        icc = Self.chunk("ICCP", in: demux)
        exif = Self.chunk("EXIF", in: demux)
        xmp = Self.chunk("XMP ", in: demux)
    }

    /// The first chunk named `fourCC` (ICCP, EXIF, XMP) a demuxed file holds, copied out.
    static func chunk(_ fourCC: String, in demux: OpaquePointer) -> [UInt8]? {
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demux, fourCC, 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        return Array(UnsafeBufferPointer(start: iterator.chunk.bytes, count: iterator.chunk.size))
    }
}
