import CHEIF
import CHEVCDecoder
import FilterCore
import Foundation

/// HEIF-family reader (libheif): HEIC (HEVC, through the system's libheif and whichever HEVC decoder it was built
/// with) and AVIF (AV1). The primary image of a collection is read; grid (tiled) images are assembled by libheif;
/// the `irot`/`imir`/`clap` transforms are applied by libheif while decoding, so the EXIF orientation a file may
/// also carry is never applied on top (`metadata.orientation` is 1, as HEIF readers agree). An identity-derived
/// primary (`iden`) is read as the item it derives from, its own transforms applied here (`HEIFIdentityItems`).
/// 8-bit images give 8-bit rows, 10- and 12-bit ones 16-bit rows (scaled to the full 16-bit range); alpha from the auxiliary alpha image,
/// made straight when the file stores it premultiplied. Colour comes from the ICC profile, else the nclx code
/// points. libheif decodes a whole picture, so the decoder holds the file and libheif's decoded image, which rows are
/// read from; sizes over the limits are refused before anything is decoded.
package final class HEIFDecoder: DescriptorDecoder {
    package let path: String
    package let formatName: String
    package let width: Int
    package let height: Int
    package let format: PixelFormat
    package let metadata: ImageMetadata
    /// Bits a sample in the file (8, 10 or 12).
    package let bitDepth: Int
    /// Images in the file besides thumbnails and auxiliary images (the primary one is read).
    package let imageCount: Int
    package var nextRow: Int { rowsRead }
    /// An AVIF image sequence (brand `avis`), read here as its still primary image.
    package let isSequence: Bool
    package var fileWarnings: [String] {
        guard isSequence else { return [] }
        guard formatName == "HEIC" else { return [CodecError.firstFrameNote(path, frames: nil)] }
        return ["note: \(FileText.escaped(path)) is an HEIC image sequence; its primary image is read (HEIC sequences are not "
                + "rendered frame by frame here, --frames all included)"]
    }
    /// The file, libheif's decoded planes and RGB image (the same figure the limits are checked with).
    package let decodingBytes: Double

    private let file: UnsafeMutableRawBufferPointer
    private let context: OpaquePointer
    private let handle: OpaquePointer
    private let premultiplied: Bool
    /// The most pixels a picture coded for this image may have: its stored size ('ispe', before transforms and
    /// cropping) with a coding block's padding, within the pixel limit (padded too).
    private let codedPixelBound: Int
    /// The picture libheif decodes (the primary's, or the item its identities derive from) and where the image's
    /// pixels come from in it.
    private let pictureSize: (width: Int, height: Int)
    private let pixelMap: HEIFPixelMap
    private var decoded: Decoded?
    private var rowsRead = 0
    /// The primary image is coded as grey alone (AV1 `mono_chrome`, HEVC 4:0:0). libheif 1.15 turns such an image
    /// into RGB by copying its codes, limited range left unexpanded (16–235 for black to white); so it is decoded as
    /// grey here and its range applied by us, with any libheif.
    private let monochrome: Bool

    /// Reads from `fd` (owned and closed by the decoder, at its start); `name` is what messages call it.
    package init(descriptor fd: Int32, name path: String, limits: DecodeLimits) throws {
        self.path = path
        let stored = try WholePicture.readFile(fd, name: path, limit: limits.maxMemory)
        let isAVIF = Self.isAVIF(stored)
        let resolved: HEIFIdentityItems.Resolved?
        do { resolved = try HEIFIdentityItems.resolve(stored) } catch {
            let format = isAVIF ? "AVIF" : "HEIC"
            throw error.unsupported
                ? CodecError(kind: .unsupported, path: path, message: "\(error.message), which this \(format) reader does not decode")
                : CodecError(kind: .corrupt, path: path, message: "corrupt \(format): \(error.message)")
        }
        let bytes = resolved?.bytes ?? stored
        // libheif reads from memory it does not copy, so the bytes live as long as the context.
        let file = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { file.copyMemory(from: $0) }
        self.file = file
        if let feature = HEIFProperties.unsupportedPrimary(bytes) {
            file.deallocate()
            throw CodecError(kind: .unsupported, path: path, message: "\(feature), which the HEIF library here (libheif "
                             + "1.15) does not decode; convert it with a newer libheif first (its heif-convert)")
        }
        isSequence = AVIFSequenceReader.isSequence(bytes) || Self.isHEICSequence(bytes)
        formatName = isAVIF ? "AVIF" : "HEIC"
        do { try HEIFLibrary.load(for: path, format: formatName) } catch {
            file.deallocate()
            throw error
        }
        guard let context = heif_context_alloc() else {
            file.deallocate()
            throw CodecError(kind: .tooLarge, path: path, message: "out of memory opening the \(isAVIF ? "AVIF" : "HEIC") file")
        }
        self.context = context
        // libheif's own bound on a side, beside ours on the area (checked below, before decoding).
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: min(limits.maxPixels, 1 << 20)))
        var primary: OpaquePointer?
        do {
            try Self.check(heif_context_read_from_memory_without_copy(context, file.baseAddress, bytes.count, nil), path: path, what: "read")
            try Self.check(heif_context_get_primary_image_handle(context, &primary), path: path, what: "read")
        } catch {
            heif_context_free(context)
            file.deallocate()
            throw error
        }
        guard let handle = primary else {
            heif_context_free(context)
            file.deallocate()
            throw CodecError(kind: .corrupt, path: path, message: "corrupt \(formatName): it has no primary image")
        }
        self.handle = handle
        monochrome = HEIFProperties.primaryIsMonochrome(bytes)
        // libheif 1.15 decodes every layer of a layered AV1 image and gives the wrong one's size: refused here, so
        // the reader's caller takes it to libavif, which honours the operating point (`a1op`) and layer (`lsel`).
        if isAVIF, HEIFProperties.primaryProperties(bytes).contains(where: { $0.kind == "a1op" || $0.kind == "lsel" || $0.kind == "a1lx" }) {
            // Not yet whole (deinit will not run): what was opened is released here.
            heif_image_handle_release(handle)
            heif_context_free(context)
            file.deallocate()
            throw CodecError(kind: .unsupported, path: path, message: "a layered AVIF (an operating point chooses its layers), "
                             + "which libheif 1.15 does not decode")
        }
        imageCount = Int(heif_context_get_number_of_top_level_images(context))
        pictureSize = (Int(heif_image_handle_get_width(handle)), Int(heif_image_handle_get_height(handle)))
        var map: HEIFPixelMap? = HEIFPixelMap(width: pictureSize.width, height: pictureSize.height)
        for transform in resolved?.transforms ?? [] { map = map?.applying(transform) }
        guard let map else {
            heif_image_handle_release(handle)
            heif_context_free(context)
            file.deallocate()
            throw CodecError(kind: .corrupt, path: path, message: "corrupt \(formatName): its clean aperture ('clap') leaves no picture")
        }
        pixelMap = map
        width = map.width
        height = map.height
        let depth = Int(heif_image_handle_get_luma_bits_per_pixel(handle))
        bitDepth = depth
        let alpha = heif_image_handle_has_alpha_channel(handle) != 0
        premultiplied = alpha && heif_image_handle_is_premultiplied_alpha(handle) != 0
        let ispe = (Int(max(heif_image_handle_get_ispe_width(handle), 0)), Int(max(heif_image_handle_get_ispe_height(handle), 0)))
        // Padding aside, a picture larger than the pixel limit is refused (a 'clap' may crop a huge one small).
        codedPixelBound = min((ispe.0 + 64) * (ispe.1 + 64), max(limits.maxPixels, (pictureSize.width + 64) * (pictureSize.height + 64)))
        // No picture libheif composes for this image (an overlay canvas, an alpha image) is wider or taller than
        // the image: libheif checks canvases against this side limit, which was the pixel limit's while reading.
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: max(ispe.0, ispe.1, pictureSize.width, pictureSize.height) + 1))
        format = PixelFormat.integer(channels: alpha ? 4 : 3, depth: depth > 8 ? 16 : 8)!
        var described = ImageMetadata(orientation: 1, iccProfile: Self.iccProfile(handle))
        described.codingPoints = Self.codingPoints(handle)
        if described.codingPoints?.isHDR == true { described.peakLuminance = HEIFProperties.peakLuminance(bytes) }
        // libheif applies irot/imir while decoding, with or without autorotation: the Exif orientation (which
        // repeats them) is set upright before anything carries it.
        let (w, h) = (width, height)
        described.exif = Self.metadataBlock(handle, type: "Exif").flatMap(Exif.tiffStructure(inPayload:))
            .flatMap { Exif.edited($0, width: w, height: h, upright: true, stripLocation: false) }
        described.xmp = Self.metadataBlock(handle, type: "mime", contentType: "application/rdf+xml")
        metadata = described
        guard (1...16).contains(depth) else {
            // Not yet whole (deinit will not run): what was opened is released here.
            heif_image_handle_release(handle)
            heif_context_free(context)
            file.deallocate()
            throw CodecError(kind: .corrupt, path: path, message: "corrupt \(formatName): its image has no usable bit depth")
        }
        let held = format.bytesPerPixel, fileBytes = bytes.count
        // The decoded planes (up to 3 samples a pixel, 2 bytes when deep) and libheif's RGB image, which rows are read from.
        // In floating point: the size is not yet checked, and the product could overflow an Int.
        let holding = { (pixels: Double) in pixels * Double(held + (depth > 8 ? 6 : 3)) + Double(fileBytes) }
        // The decoded picture is what is held (a clean aperture crops it afterwards).
        decodingBytes = holding(Double(pictureSize.width) * Double(pictureSize.height)) + Double(map.isIdentity ? 0 : width * held)
        try limits.checkWhole(path, format: formatName, width: pictureSize.width, height: pictureSize.height) { holding(Double($0)) }
    }

    /// Whether an HEIC file's brands say it holds an image sequence (`msf1`, `hevs`: a track of pictures beside
    /// its items).
    package static func isHEICSequence(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 16, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return false }
        let size = min(bytes.count, HEIFProperties.number(bytes, 0, 4))
        let brands = Swift.stride(from: 8, to: size - 3, by: 4).filter { $0 != 12 }.map { String(decoding: bytes[$0..<($0 + 4)], as: UTF8.self) }
        return brands.contains("msf1") || brands.contains("hevs")
    }

    deinit {
        decoded?.release()
        heif_image_handle_release(handle)
        heif_context_free(context)
        file.deallocate()
    }

    /// Rows come straight from libheif's decoded planes, held from the first read to the last row and interleaved as
    /// they are read: libheif decodes to planar RGB before anything else, so asking for those planes spares an
    /// interleaved copy of the whole picture (39 MB for 13 MP) and a pass over it.
    package func readRows(into destination: UnsafeMutableRawPointer, stride: Int, count: Int) throws {
        try CodecError.checkRows(path, done: rowsRead, count: count, height: height)
        let picture = try decoded ?? decode()
        decoded = picture
        for i in 0..<count { copyRow(picture, rowsRead + i, into: destination + i * stride) }
        rowsRead += count
        guard rowsRead == height else { return }
        picture.release()
        decoded = nil
    }

    /// libheif's decoded image and its R, G, B (and alpha) planes.
    private struct Decoded {
        let image: OpaquePointer
        let planes: [(start: UnsafePointer<UInt8>, stride: Int, bits: Int)]
        /// Output samples by grey code, for a limited-range monochrome image (its grey is each of R, G, B).
        var greyCodes: [UInt16]? = nil
        /// A row of each plane gathered through the pixel map, when it moves pixels.
        var gathered: UnsafeMutableRawPointer? = nil

        func release() {
            heif_image_release(image)
            gathered?.deallocate()
        }
    }

    /// The primary image decoded to planar RGB(A), transforms applied.
    private func decode() throws -> Decoded {
        guard let options = heif_decoding_options_alloc() else {
            throw CodecError(kind: .tooLarge, path: path, message: "out of memory decoding the \(formatName) image")
        }
        defer { heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 0
        var decodedImage: OpaquePointer?
        fr_hevc_begin_image(codedPixelBound)
        defer { fr_hevc_end_image(codedPixelBound) }
        try Self.check(heif_decode_image(handle, &decodedImage, monochrome ? heif_colorspace_monochrome : heif_colorspace_RGB,
                                         monochrome ? heif_chroma_monochrome : heif_chroma_444, options), path: path, what: "decode")
        guard let image = decodedImage else { throw CodecError(kind: .corrupt, path: path, message: "corrupt \(formatName): no image was decoded") }
        let colour = monochrome ? [heif_channel_Y, heif_channel_Y, heif_channel_Y] : [heif_channel_R, heif_channel_G, heif_channel_B]
        let channels: [heif_channel] = colour + (format.channels == 4 ? [heif_channel_Alpha] : [])
        var planes: [(start: UnsafePointer<UInt8>, stride: Int, bits: Int)] = []
        let sampleBytes = format.depth / 8
        for channel in channels {
            var stride: Int32 = 0
            let bits = Int(heif_image_get_bits_per_pixel_range(image, channel))
            guard let plane = heif_image_get_plane_readonly(image, channel, &stride),
                  Int(heif_image_get_width(image, channel)) == pictureSize.width,
                  Int(heif_image_get_height(image, channel)) == pictureSize.height,
                  Int(stride) >= pictureSize.width * sampleBytes, (1...16).contains(bits), (bits > 8) == (sampleBytes == 2) else {
                heif_image_release(image)
                throw CodecError(kind: .corrupt, path: path, message: "corrupt \(formatName): the decoded image is not the size and depth the file states")
            }
            planes.append((plane, Int(stride), bits))
        }
        var greyCodes: [UInt16]?
        if monochrome, !Self.isFullRange(image, handle: handle), let bits = planes.first?.bits {
            greyCodes = Self.limitedRangeTable(bits: bits, outputDepth: format.depth)
        }
        let gathered = pixelMap.isIdentity ? nil
            : UnsafeMutableRawPointer.allocate(byteCount: planes.count * width * sampleBytes, alignment: 16)
        return Decoded(image: image, planes: planes, greyCodes: greyCodes, gathered: gathered)
    }

    /// Whether the decoded image's samples span the full range (the coded stream's flag, else the file's `colr`;
    /// AV1 and HEVC default to limited when neither says).
    private static func isFullRange(_ image: OpaquePointer, handle: OpaquePointer) -> Bool {
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        if heif_image_get_nclx_color_profile(image, &nclx).code == heif_error_Ok, let nclx {
            defer { heif_nclx_color_profile_free(nclx) }
            return nclx.pointee.full_range_flag != 0
        }
        if heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx {
            defer { heif_nclx_color_profile_free(nclx) }
            return nclx.pointee.full_range_flag != 0
        }
        return false
    }

    /// Limited-range luma codes of `bits` bits (black 16·2^(bits−8), white 235·2^(bits−8); ITU-T H.273) as output
    /// samples of `outputDepth` bits, clamped; a code past either end is held there.
    static func limitedRangeTable(bits: Int, outputDepth: Int) -> [UInt16] {
        let scale = Double(1 << (bits - 8)), black = 16 * scale, span = 219 * scale
        let top = Double((1 << outputDepth) - 1)
        return (0..<(1 << bits)).map { code in UInt16(min(max((Double(code) - black) / span, 0), 1) * top + 0.5) }
    }

    /// Row `y` of the planes, interleaved: 8-bit samples as they are, 10/12-bit ones (in native 16-bit words) scaled
    /// to the 16-bit range, rounded; premultiplied alpha made straight, as the other formats store it.
    private func copyRow(_ picture: Decoded, _ y: Int, into row: UnsafeMutableRawPointer) {
        let channels = picture.planes.count
        // Each plane's row is reached once a row (gathered through the pixel map where it moves pixels).
        func source(_ plane: Int) -> UnsafePointer<UInt8> { rowOf(picture, plane: plane, y) }
        if let table = picture.greyCodes {
            // Grey in R, G and B through the range table; alpha (full range always) as the other paths read it.
            let input = source(0)
            for x in 0..<width {
                let code = format.depth == 8 ? Int(input[x]) : Int(UnsafeRawPointer(input).assumingMemoryBound(to: UInt16.self)[x])
                let value = table[min(code, table.count - 1)]
                for c in 0..<3 {
                    if format.depth == 8 { row.storeBytes(of: UInt8(value), toByteOffset: x * channels + c, as: UInt8.self) }
                    else { row.storeBytes(of: value, toByteOffset: (x * channels + c) * 2, as: UInt16.self) }
                }
            }
            guard channels == 4 else { return }
            let a = source(3), top = (1 << picture.planes[3].bits) - 1
            for x in 0..<width {
                if format.depth == 8 { row.storeBytes(of: a[x], toByteOffset: x * 4 + 3, as: UInt8.self) } else {
                    let v = min(Int(UnsafeRawPointer(a).assumingMemoryBound(to: UInt16.self)[x]), top)
                    row.storeBytes(of: UInt16((v * 65535 + top / 2) / top), toByteOffset: (x * 4 + 3) * 2, as: UInt16.self)
                }
            }
            if premultiplied {
                if format.depth == 8 { Self.unassociate(row.assumingMemoryBound(to: UInt8.self), samples: width * 4, channels: 4) }
                else { Self.unassociate(row.assumingMemoryBound(to: UInt16.self), samples: width * 4, channels: 4) }
            }
            return
        }
        if format.depth == 8 {
            let output = row.assumingMemoryBound(to: UInt8.self)
            for c in 0..<channels {
                let input = source(c)
                for x in 0..<width { output[x * channels + c] = input[x] }
            }
            if premultiplied { Self.unassociate(output, samples: width * channels, channels: channels) }
            return
        }
        let output = row.assumingMemoryBound(to: UInt16.self)
        for (c, plane) in picture.planes.enumerated() {
            let input = UnsafeRawPointer(source(c)).assumingMemoryBound(to: UInt16.self)
            let top = (1 << plane.bits) - 1
            for x in 0..<width {
                let v = min(Int(input[x]), top)
                output[x * channels + c] = UInt16((v * 65535 + top / 2) / top)
            }
        }
        if premultiplied { Self.unassociate(output, samples: width * channels, channels: channels) }
    }

    /// Row `y` of the image in one plane: the decoded row itself, or its samples gathered through the pixel map.
    private func rowOf(_ picture: Decoded, plane index: Int, _ y: Int) -> UnsafePointer<UInt8> {
        let plane = picture.planes[index]
        guard let gathered = picture.gathered else { return plane.start + y * plane.stride }
        let sampleBytes = format.depth / 8, row = gathered + index * width * sampleBytes
        let start = pixelMap.source(x: 0, y: y)
        var at = start.y * plane.stride + start.x * sampleBytes
        let step = pixelMap.stepX.y * plane.stride + pixelMap.stepX.x * sampleBytes
        for x in 0..<width {
            (row + x * sampleBytes).copyMemory(from: plane.start + at, byteCount: sampleBytes)
            at += step
        }
        return UnsafePointer(row.assumingMemoryBound(to: UInt8.self))
    }

    /// Premultiplied RGBA samples (8- or 16-bit) made straight, in place.
    static func unassociate<Sample: FixedWidthInteger & UnsignedInteger>(_ row: UnsafeMutablePointer<Sample>, samples: Int,
                                                                           channels: Int) {
        let top = Int(Sample.max)
        for p in Swift.stride(from: 0, to: samples, by: channels) {
            let a = Int(row[p + 3])
            for c in 0..<3 { row[p + c] = a == 0 ? 0 : Sample(min(top, (Int(row[p + c]) * top + a / 2) / a)) }
        }
    }

    /// Whether the file's brands (ftyp: the major brand, then the compatible ones) say AV1 rather than HEVC.
    static func isAVIF(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 16, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return false }
        let size = min(bytes.count, Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3]))
        let brands = ([8] + Array(stride(from: 16, to: size - 3, by: 4))).map { String(decoding: bytes[$0..<($0 + 4)], as: UTF8.self) }
        if ["avif", "avis"].contains(brands[0]) { return true }
        return brands.contains("avif") && !brands.contains { $0.hasPrefix("hei") || $0.hasPrefix("hev") }
    }

    /// The embedded ICC profile ('prof' or 'rICC' colour box), if any.
    private static func iccProfile(_ handle: OpaquePointer) -> [UInt8]? {
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        let error = heif_image_handle_get_raw_color_profile(handle, &bytes)
        return error.code == heif_error_Ok ? bytes : nil
    }

    /// The first metadata item of `type` (and `contentType`, for "mime" items), as stored; nil when there is none
    /// or it is larger than 16 MiB.
    private static func metadataBlock(_ handle: OpaquePointer, type: String, contentType: String? = nil) -> [UInt8]? {
        let count = Int(heif_image_handle_get_number_of_metadata_blocks(handle, type))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, type, &ids, Int32(count)))
        for id in ids.prefix(listed) {
            if let contentType, heif_image_handle_get_metadata_content_type(handle, id).map({ String(cString: $0) }) != contentType {
                continue
            }
            let size = heif_image_handle_get_metadata_size(handle, id)
            guard size > 0, size <= 16 << 20 else { continue }
            var bytes = [UInt8](repeating: 0, count: size)
            if heif_image_handle_get_metadata(handle, id, &bytes).code == heif_error_Ok { return bytes }
        }
        return nil
    }

    /// The nclx colour box's primaries and transfer curve, if the file has one.
    private static func codingPoints(_ handle: OpaquePointer) -> ColourCodingPoints? {
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        guard heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else { return nil }
        defer { heif_nclx_color_profile_free(nclx) }
        return ColourCodingPoints(primaries: Int(nclx.pointee.color_primaries.rawValue),
                                  transfer: Int(nclx.pointee.transfer_characteristics.rawValue))
    }

    /// Throws libheif's error as a `CodecError` naming the file and what failed.
    static func check(_ error: heif_error, path: String, what: String) throws {
        guard error.code != heif_error_Ok else { return }
        throw HEIFError.codecError(error, path: path, doing: what)
    }
}
