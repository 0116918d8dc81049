import CTIFFShim
import FilterCore
import Foundation

/// TIFF reader (libtiff), the first page or the one `DecodeLimits.page` names: 8- and 16-bit grey, grey + alpha, RGB and RGBA — strips or tiles, chunky or
/// planar, any compression libtiff decodes (none, LZW, deflate, PackBits, JPEG…) with its predictors — are read as
/// stored, associated alpha made straight and min-is-white inverted; CMYK is read as its inks for a conversion
/// through its profile (or converted naively without one); other layouts (palette, YCbCr, 1–4 bits) go through
/// libtiff's RGBA interface at 8 bits. Floating-point grey, grey + alpha, RGB and RGBA (16-, 32- and 64-bit IEEE,
/// any predictor) are read as floats: linear light as stored, premultiplied, not clamped (NaN read as 0, infinities
/// and magnitudes past 65504 held there, half float's largest, so no filter meets a non-finite value). The
/// orientation tag turns the image and the ICC tag converts its colour, as EXIF and ICC do for JPEG. Rows stream a
/// band at a time (a strip, or a row of tiles: what the file compresses together), so a large scan holds one band,
/// refused beyond `maxMemory` before decoding. A pyramid's reduced copies of the page (its SubIFDs,
/// or the pages after it, marked reduced-resolution, of the same layout and half the size level after level) are
/// offered as decode reductions: `reduce(toWidth:height:)` reads a level instead of the page.
package final class TIFFDecoder: DescriptorDecoder {
    package let path: String
    package let formatName = "TIFF"
    package private(set) var width: Int
    package private(set) var height: Int
    package let storedWidth: Int
    package let storedHeight: Int
    package private(set) var format: PixelFormat
    package let metadata: ImageMetadata
    package let storesInks: Bool
    package let storesFloats: Bool
    /// For floats: the file's layout at 16 bits, what outputs follow.
    private let floatLayout: PixelFormat?
    package var storedFormat: PixelFormat { floatLayout ?? format }
    package var nextRow: Int { streamedRows }
    package var decodingBytes: Double {
        // libtiff's buffer for a strip or tile, of its declared size, beside the band.
        Double(width * bandHeight * (format.bytesPerPixel + max(pixelBytes, 4)) + max(0, fr_tiff_chunk_size(tiff)))
    }
    package var decodingHolds: String { "decoded rows (a band of strips or tiles)" }
    package var fileWarnings: [String] { warnings }

    private var tiff: OpaquePointer?
    private var info: fr_tiff_info
    /// The page's pyramid levels this decoder can read instead (same layout, 1/2ᵏ of the size), and where each starts.
    private var levels: [(level: DecodeReductions.Level, offset: UInt64)] = []
    /// Samples read as stored (else through the RGBA interface).
    private let direct: Bool
    /// Rows delivered so far.
    private var streamedRows = 0
    /// The band decoded last (rows as delivered) and the first row it holds.
    private var band: [UInt8] = [], bandFirst = 0, bandCount = 0
    /// Rows each band holds: a strip's rows, or a tile's height.
    private var bandHeight: Int { info.tiled != 0 ? max(1, Int(info.tile_height)) : max(1, min(Int(info.rows_per_strip), height)) }
    /// Bytes a stored pixel takes.
    private var pixelBytes: Int { Int(info.samples_per_pixel) * max(1, Int(info.bits_per_sample) / 8) }
    /// Rows are the file's inks (see `deliverInks()`).
    private var deliveringInks = false
    private var warnings: [String] = []

    /// Reads from `fd` (owned by the decoder from now on); `name` is what messages call it.
    package init(descriptor fd: Int32, name path: String, limits: DecodeLimits) throws {
        self.path = path
        do { try TIFFLibrary.load(for: path) } catch { close(fd); throw error }
        var message = [CChar](repeating: 0, count: 512)
        guard let tiff = fr_tiff_open_read(fd, path, &message, message.count) else {
            throw CodecError(kind: .corrupt, path: path, message: "corrupt TIFF: \(FileText.escaped(String(cString: message)))")
        }
        self.tiff = tiff
        var info = fr_tiff_info()
        let pages = Int(fr_tiff_pages(tiff))
        guard (0..<max(1, pages)).contains(limits.page) else {
            fr_tiff_close(tiff)
            self.tiff = nil
            throw CodecError(kind: .invalidRequest, path: path, message: "\(SettingName.page) \(limits.page) asks for a page "
                             + "this TIFF does not have: it has \(pages) page\(pages == 1 ? "" : "s") (0 to \(max(0, pages - 1)))")
        }
        guard fr_tiff_select(tiff, Int32(limits.page), &info) == 0 else {
            let reason = String(cString: fr_tiff_error(tiff))
            fr_tiff_close(tiff)
            self.tiff = nil
            throw CodecError(kind: .corrupt, path: path, message: "corrupt TIFF: \(FileText.escaped(reason))")
        }
        self.info = info
        width = Int(info.width)
        height = Int(info.height)
        storedWidth = width
        storedHeight = height
        let icc = info.icc.map { Array(UnsafeBufferPointer(start: $0, count: Int(info.icc_length))) }
        var metadata = ImageMetadata(orientation: (1...8).contains(Int(info.orientation)) ? Int(info.orientation) : 1, iccProfile: icc)
        metadata.xmp = info.xmp.map { Array(UnsafeBufferPointer(start: $0, count: Int(info.xmp_length))) }
        metadata.exif = Self.exifBlock(tiff)
        self.metadata = metadata

        let bits = Int(info.bits_per_sample), samples = Int(info.samples_per_pixel)
        let hasAlpha = info.extra_sample >= 0
        let colourSamples = samples - (hasAlpha ? 1 : 0)
        let photometric = Int(info.photometric)
        let unsigned = info.sample_format == 1
        let layout: PixelFormat? = PixelFormat.integer(channels: samples, depth: bits)
        // Grey (0 min-is-white, 1 min-is-black) or RGB (2), stored unsigned at 8 or 16 bits.
        direct = unsigned && (bits == 8 || bits == 16) && layout != nil
            && ((photometric <= 1 && colourSamples == 1) || (photometric == 2 && colourSamples == 3))
            && samples <= 4
        storesInks = unsigned && bits == 8 && photometric == 5 && samples == 4 && info.ink_set == 1 && info.extra_sample < 0
        let floating = info.sample_format == 3
        if floating {
            guard [16, 32, 64].contains(bits), samples <= 4,
                  (photometric <= 1 && colourSamples == 1) || (photometric == 2 && colourSamples == 3) else {
                fr_tiff_close(tiff)
                self.tiff = nil
                throw CodecError(kind: .unsupported, path: path, message: "a \(bits)-bit floating-point TIFF of \(samples) "
                                 + "samples (photometric \(photometric)); this build reads 16-, 32- and 64-bit float grey, "
                                 + "grey + alpha, RGB and RGBA (convert it first, e.g. vips cast IN OUT.tif ushort)")
            }
        }
        storesFloats = floating
        floatLayout = floating ? PixelFormat.integer(channels: samples, depth: 16) : nil
        format = floating ? .rgba32f : direct ? layout! : (hasAlpha ? .rgba8 : .rgb8)

        // Floats are decoded as stored, then widened to four floats a pixel. Samples read as stored hold a band.
        let held = max(format.bytesPerPixel, 4) + (floating ? samples * bits / 8 : 0)
        let bandRows = max(1, min(height, info.tiled != 0 ? Int(info.tile_height) : Int(info.rows_per_strip)))
        // libtiff decodes a whole strip or tile into a buffer of its declared size, whatever the image's: a 64² image
        // may declare a 65536² tile, so that size is counted too (TIFFTileSize/TIFFStripSize, from the header).
        let chunkBytes = Double(max(0, fr_tiff_chunk_size(tiff)))
        try limits.checkWhole(path, format: "TIFF", width: width, height: height) { _ in Double(width * bandRows * held) }
        if chunkBytes > Double(limits.maxMemory) {  // with the band, the plan counts it (`decodingBytes`)
            throw CodecError(kind: .tooLarge, path: path, message: String(
                format: "this %d×%d TIFF declares %@ of %.2f GiB each, over the memory limit of %.2f GiB (\(SettingName.maxMemory))",
                width, height, info.tiled != 0 ? "tiles of \(info.tile_width)×\(info.tile_height)" : "strips",
                chunkBytes / 1_073_741_824, Double(limits.maxMemory) / 1_073_741_824))
        }
        let pyramid = Self.levels(tiff, page: limits.page, of: info)
        levels = pyramid.levels
        // A pyramid's levels stored as pages are not other pictures.
        if Int(info.pages) - pyramid.reducedPages > 1 && limits.page == 0 {
            warnings.append("note: \(FileText.escaped(path)) has \(info.pages) pages; the first is read (\(SettingName.page) picks another)")
        }
    }

    /// The reduced copies of `page` that read as the page does (bits, samples, sample format, photometric, alpha
    /// and inks alike) at 1/2ᵏ of its size, each axis ⌊ ⌋ or ⌈ ⌉ of it, at most one for each k.
    /// Also how many pages after `page` are reduced copies (a pyramid stored as pages).
    private static func levels(_ tiff: OpaquePointer, page: Int, of main: fr_tiff_info)
        -> (levels: [(level: DecodeReductions.Level, offset: UInt64)], reducedPages: Int) {
        var found = [fr_tiff_level](repeating: fr_tiff_level(), count: 16)
        let count = Int(fr_tiff_levels(tiff, Int32(page), &found, Int32(found.count)))
        let reducedPages = found.prefix(count).filter { $0.is_page != 0 }.count
        var levels = [(level: DecodeReductions.Level, offset: UInt64)]()
        for candidate in found.prefix(count) {
            let (w, h) = (Int(candidate.width), Int(candidate.height))
            guard w > 0, h > 0, let k = (1...12).first(where: { k in
                [Int(main.width) >> k, (Int(main.width) + (1 << k) - 1) >> k].contains(w)
                    && [Int(main.height) >> k, (Int(main.height) + (1 << k) - 1) >> k].contains(h)
            }), !levels.contains(where: { $0.level.factor == 1 << k }) else { continue }
            var info = main
            guard fr_tiff_select_level(tiff, candidate.offset, &info) == 0,
                  info.bits_per_sample == main.bits_per_sample, info.samples_per_pixel == main.samples_per_pixel,
                  info.sample_format == main.sample_format, info.photometric == main.photometric,
                  info.extra_sample == main.extra_sample, info.ink_set == main.ink_set else { continue }
            levels.append((DecodeReductions.Level(factor: 1 << k, width: w, height: h), candidate.offset))
        }
        // Back to the page itself.
        var info = main
        _ = fr_tiff_select(tiff, Int32(page), &info)
        return (levels.sorted { $0.level.factor < $1.level.factor }, reducedPages)
    }

    /// The page's camera fields as an Exif block (what `--keep-metadata` carries): its own descriptive text (make,
    /// model, date, artist, copyright, description, software) and the fields of its Exif and GPS directories, read
    /// from the file within 1 MiB; the maker note (offsets into this file) and the interoperability pointer left
    /// out (a BigTIFF's directories as its 8-byte layout says). Nil when there are none.
    private static func exifBlock(_ tiff: OpaquePointer) -> [UInt8]? {
        var ifd: UInt64 = 0, big: Int32 = 0, bigTIFF: Int32 = 0
        guard fr_tiff_exif_layout(tiff, &ifd, &big, &bigTIFF) == 0, ifd < UInt64(Int.max) else { return nil }
        var budget = 1 << 20
        let text: Set<Int> = [270, 271, 272, 305, 306, 315, 33432]
        let fields = Exif.fields(first: Int(ifd), bigEndian: big != 0, bigTIFF: bigTIFF != 0) { offset, count in
            guard offset >= 0, count >= 0, count <= budget else { return nil }
            budget -= count
            var out = [UInt8](repeating: 0, count: count)
            let read = out.withUnsafeMutableBytes { fr_tiff_read_bytes(tiff, UInt64(offset), $0.baseAddress, count) }
            return read == count ? out : nil
        }.filter { $0.directory != .image || text.contains($0.tag) }
        return fields.isEmpty ? nil : Exif.block(fields, bigEndian: big != 0)
    }

    package var decodeReductions: DecodeReductions {
        levels.isEmpty ? .none : DecodeReductions(levels: levels.map(\.level), how: "from the TIFF's pyramid level")
    }

    package func reduce(by factor: Int) throws {
        guard let level = levels.first(where: { $0.level.factor == factor }) else {
            throw CodecError(kind: .invalidRequest, path: path, message: "this TIFF has no pyramid level at 1/\(factor)")
        }
        try reduce(toWidth: level.level.width, height: level.level.height)
    }

    package func reduce(toWidth width: Int, height: Int) throws {
        guard nextRow == 0, let level = levels.first(where: { $0.level.width == width && $0.level.height == height }) else {
            throw CodecError(kind: .invalidRequest, path: path, message: "this TIFF has no pyramid level of \(width)×\(height)")
        }
        var info = self.info
        guard fr_tiff_select_level(tiff, level.offset, &info) == 0 else { throw failure("its pyramid level of \(width)×\(height) cannot be read") }
        self.info = info
        self.width = width
        self.height = height
    }

    deinit { fr_tiff_close(tiff) }

    package func deliverInks() throws {
        guard storesInks, nextRow == 0 else {
            throw CodecError(kind: .invalidRequest, path: path, message: "TIFF file has no CMYK inks")
        }
        format = Self.inkFormat
        deliveringInks = true
    }

    package func readRows(into destination: UnsafeMutableRawPointer, stride: Int, count: Int) throws {
        try CodecError.checkRows(path, done: streamedRows, count: count, height: height)
        let rowBytes = width * format.bytesPerPixel
        for row in streamedRows..<(streamedRows + count) {
            if !(bandFirst..<(bandFirst + bandCount)).contains(row) { try decodeBand(containing: row) }
            band.withUnsafeBytes { b in
                (destination + (row - streamedRows) * stride).copyMemory(from: b.baseAddress! + (row - bandFirst) * rowBytes, byteCount: rowBytes)
            }
        }
        streamedRows += count
        guard streamedRows == height else { return }
        band = []
        let text = String(cString: fr_tiff_warnings(tiff))
        if !text.isEmpty { warnings.append("warning: \(FileText.escaped(path)): \(FileText.escaped(text)); decoded anyway") }
    }

    private func failure(_ what: String) -> CodecError {
        let reason = String(cString: fr_tiff_error(tiff))
        return CodecError(kind: .corrupt, path: path, message: "corrupt TIFF: \(what)" + (reason.isEmpty ? "" : " (\(FileText.escaped(reason)))"))
    }

    /// The band holding `row` through libtiff's RGBA interface (the layouts not read as stored), four samples a
    /// pixel made three where there is no alpha.
    private func decodeRGBABand(from y0: Int, rows: Int) throws -> [UInt8] {
        var raster = [UInt8](repeating: 0, count: width * rows * 4)
        guard fr_tiff_read_rgba_rows(tiff, UInt32(y0), UInt32(rows), &raster) == 0 else { throw failure("its image data cannot be decoded") }
        let channels = format.bytesPerPixel
        guard channels != 4 else { return raster }
        var out = [UInt8](repeating: 0, count: width * rows * channels)
        for p in 0..<(width * rows) {
            for c in 0..<channels { out[p * channels + c] = raster[p * 4 + c] }
        }
        return out
    }

    /// The band (a strip, or a row of tiles) holding `row`, its samples as stored — every strip or tile of it decoded
    /// and placed, planes interleaved — then made what rows deliver (inverted, made straight, widened to floats).
    private func decodeBand(containing row: Int) throws {
        let y0 = row / bandHeight * bandHeight, rows = min(bandHeight, height - y0)
        if !(direct || deliveringInks || storesFloats) {
            band = try decodeRGBABand(from: y0, rows: rows)
            bandFirst = y0
            bandCount = rows
            return
        }
        let samples = Int(info.samples_per_pixel), bytesPerSample = Int(info.bits_per_sample) / 8
        let planar = info.planar == 2
        let pixelBytes = samples * bytesPerSample
        let chunkBytes = fr_tiff_chunk_size(tiff)
        guard chunkBytes > 0 else { throw failure("its strips or tiles have no size") }
        let tiled = info.tiled != 0
        let chunkWidth = tiled ? Int(info.tile_width) : width
        let chunkHeight = bandHeight
        guard chunkWidth > 0 else { throw failure("its tiles are \(chunkWidth)×\(chunkHeight)") }
        var out = [UInt8](repeating: 0, count: width * rows * pixelBytes)
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        let planes = planar ? samples : 1
        let chunkPixelBytes = planar ? bytesPerSample : pixelBytes
        for plane in 0..<planes {
            for x0 in stride(from: 0, to: width, by: chunkWidth) {
                let index = fr_tiff_chunk_index(tiff, UInt32(x0), UInt32(y0), UInt16(plane))
                let got = chunk.withUnsafeMutableBytes { fr_tiff_read_chunk(tiff, index, $0.baseAddress, chunkBytes) }
                guard got >= 0 else { throw failure("\(tiled ? "tile" : "strip") \(index) cannot be decoded") }
                let columns = min(chunkWidth, width - x0)
                // A short strip (the last one) holds only its rows.
                guard got >= (rows - 1) * chunkWidth * chunkPixelBytes + columns * chunkPixelBytes else {
                    throw failure("\(tiled ? "tile" : "strip") \(index) holds \(got) bytes, too few for its pixels")
                }
                for r in 0..<rows {
                    let source = r * chunkWidth * chunkPixelBytes
                    let target = (r * width + x0) * pixelBytes
                    if !planar {
                        out.withUnsafeMutableBytes { o in chunk.withUnsafeBytes { c in
                            (o.baseAddress! + target).copyMemory(from: c.baseAddress! + source, byteCount: columns * pixelBytes)
                        } }
                    } else {
                        for x in 0..<columns {
                            for b in 0..<bytesPerSample {
                                out[target + x * pixelBytes + plane * bytesPerSample + b] = chunk[source + x * bytesPerSample + b]
                            }
                        }
                    }
                }
            }
        }
        if storesFloats {
            out = FloatSamples.working(out, bits: Int(info.bits_per_sample), samples: samples, hasAlpha: info.extra_sample >= 0,
                                       associated: info.extra_sample == 1, minIsWhite: info.photometric == 0, count: width * rows)
        } else {
            if info.photometric == 0 && !deliveringInks { invert(&out, bytesPerSample: bytesPerSample, samples: samples) }
            if info.extra_sample == 1 { unassociate(&out, bytesPerSample: bytesPerSample, samples: samples) }
        }
        band = out
        bandFirst = y0
        bandCount = rows
    }

    /// Min-is-white grey: the colour sample runs the other way.
    private func invert(_ out: inout [UInt8], bytesPerSample: Int, samples: Int) {
        if bytesPerSample == 1 {
            for p in stride(from: 0, to: out.count, by: samples) { out[p] = 255 - out[p] }
        } else {
            out.withUnsafeMutableBytes { raw in
                let v = raw.bindMemory(to: UInt16.self)
                for p in stride(from: 0, to: v.count, by: samples) { v[p] = 65535 - v[p] }
            }
        }
    }

    /// Associated (premultiplied) alpha made straight, as the other formats store it.
    private func unassociate(_ out: inout [UInt8], bytesPerSample: Int, samples: Int) {
        let colour = samples - 1
        if bytesPerSample == 1 {
            for p in stride(from: 0, to: out.count, by: samples) {
                let a = Int(out[p + colour])
                for c in 0..<colour { out[p + c] = a == 0 ? 0 : UInt8(min(255, (Int(out[p + c]) * 255 + a / 2) / a)) }
            }
        } else {
            out.withUnsafeMutableBytes { raw in
                let v = raw.bindMemory(to: UInt16.self)
                for p in stride(from: 0, to: v.count, by: samples) {
                    let a = Int(v[p + colour])
                    for c in 0..<colour { v[p + c] = a == 0 ? 0 : UInt16(min(65535, (Int(v[p + c]) * 65535 + a / 2) / a)) }
                }
            }
        }
    }
}
