import CLCMS
import FilterCore
import Foundation

/// The unbounded step between XYZ (D50) and the working space: a matrix, then for sRGB working space the sRGB
/// curve extended to negative values by symmetry (as extended-range sRGB is), so nothing clips.
enum WorkingEncoding {
    @inline(__always)
    static func fromXYZ(_ xyz: SIMD3<Float>, space: WorkingSpace) -> SIMD3<Float> {
        let r = ColourMatrices.fromXYZ
        let v = SIMD3<Float>((r.0 * xyz).sum(), (r.1 * xyz).sum(), (r.2 * xyz).sum())
        return fromLinear(v, space: space)
    }

    @inline(__always)
    static func toXYZ(_ value: SIMD3<Float>, space: WorkingSpace) -> SIMD3<Float> {
        let v = toLinear(value, space: space)
        let c = ColourMatrices.toXYZ
        return c.0 * v.x + c.1 * v.y + c.2 * v.z
    }

    /// Linear light as working values: as it is in linear light, sRGB-encoded (extended) in the sRGB working space.
    @inline(__always)
    static func fromLinear(_ v: SIMD3<Float>, space: WorkingSpace) -> SIMD3<Float> {
        space == .srgb ? SIMD3(encode(v.x), encode(v.y), encode(v.z)) : v
    }

    /// Working values as linear light: the inverse of `fromLinear`.
    @inline(__always)
    static func toLinear(_ v: SIMD3<Float>, space: WorkingSpace) -> SIMD3<Float> {
        space == .srgb ? SIMD3(decode(v.x), decode(v.y), decode(v.z)) : v
    }

    static func encode(_ v: Float) -> Float {
        let m = abs(v)
        let e = m <= 0.0031308 ? 12.92 * m : 1.055 * pow(m, 1 / 2.4) - 0.055
        return v < 0 ? -e : e
    }

    static func decode(_ v: Float) -> Float {
        let m = abs(v)
        let d = m <= 0.04045 ? m / 12.92 : pow((m + 0.055) / 1.055, 2.4)
        return v < 0 ? -d : d
    }
}

/// The matrices as Float, read once.
enum ColourMatrices {
    static let fromXYZ: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) = {
        let r = ColourProfile.xyzToLinear.map { SIMD3<Float>(Float($0.x), Float($0.y), Float($0.z)) }
        return (r[0], r[1], r[2])
    }()
    static let toXYZ: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) = {
        let c = ColourProfile.linearToXYZ.map { SIMD3<Float>(Float($0.x), Float($0.y), Float($0.z)) }
        return (c[0], c[1], c[2])
    }()
}

/// A conversion of stored rows (8/16-bit, as decoded) into working values, four floats a pixel; safe to call
/// from several threads at once with separate scratch (3 floats a pixel).
package protocol WorkingRowConversion: AnyObject, Sendable {
    func convert(_ source: UnsafeRawPointer, into destination: UnsafeMutablePointer<Float>, width: Int,
                 scratch: UnsafeMutablePointer<Float>)
}

/// Rows of a profiled image (8/16-bit, as decoded) to working values: four floats a pixel, premultiplied, linear
/// light on sRGB primaries (or sRGB-encoded for sRGB working space), unbounded — a wide-gamut colour keeps its
/// negative or above-one components through the filters. Little CMS takes the file's values to XYZ; a matrix
/// takes XYZ to the working space; alpha is carried alongside.
package final class InputColourTransform: WorkingRowConversion, @unchecked Sendable {  // cmsDoTransform is reentrant with NOCACHE
    private let transform: cmsHTRANSFORM
    package let format: PixelFormat
    private let space: WorkingSpace
    /// For RGB matrix/TRC profiles (almost every camera and editor profile): the profile's curves as one table a
    /// channel, and its colorants and the XYZ → linear sRGB step as one matrix (rows) — the same model Little CMS
    /// evaluates, ten times faster than its general float pipeline.
    private let shaper: (tables: [[Float]], rows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>))?
    /// For 8-bit matrix/TRC input (nil otherwise): each channel's curve already multiplied by its matrix column.
    private let sums8: ChannelSumTable?
    /// The rows are CMYK inks (`ImageDecoder.inkFormat`), opaque.
    private let inks: Bool

    package init(from profile: ColourProfile, format: PixelFormat, space: WorkingSpace, inks: Bool = false) throws {
        self.space = space
        self.inks = inks
        let shaper = format.channels >= 3 && !inks ? Self.matrixShaper(profile, levels: format.bytesPerSample == 1 ? 256 : 65536) : nil
        self.shaper = shaper
        sums8 = format.bytesPerSample == 1 ? shaper.map { tables, rows in
            ChannelSumTable(curves: tables, columns: [SIMD4(rows.0.x, rows.1.x, rows.2.x, 0),
                                                      SIMD4(rows.0.y, rows.1.y, rows.2.y, 0),
                                                      SIMD4(rows.0.z, rows.1.z, rows.2.z, 0)])
        } : nil
        let input = inks ? ColourFormats.cmyk8
            : ColourFormats.integer(channels: format.channels, alpha: format.hasAlpha, bytes: format.bytesPerSample)
        guard let transform = cmsCreateTransform(profile.handle, input, ColourProfile.xyz.handle, ColourFormats.xyzFloat,
                                                 UInt32(INTENT_PERCEPTUAL), UInt32(cmsFLAGS_NOCACHE)) else {
            throw CodecError(kind: .corrupt, path: "", message: "Little CMS builds no conversion from it for \(format.rawValue) pixels")
        }
        self.transform = transform
        self.format = format
    }

    deinit { cmsDeleteTransform(transform) }

    /// The profile's curves sampled at every code, and colorants × XYZ → linear sRGB, when it is a matrix/TRC one.
    package static func matrixShaper(_ profile: ColourProfile, levels: Int) -> ([[Float]], (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>))? {
        let handle = profile.handle
        guard profile.space == .rgb, cmsIsMatrixShaper(handle) != 0, !profile.hasLUT else { return nil }
        var tables = [[Float]]()
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let curve = cmsReadTag(handle, tag) else { return nil }
            let toneCurve = OpaquePointer(curve)
            tables.append((0..<levels).map { cmsEvalToneCurveFloat(toneCurve, Float($0) / Float(levels - 1)) })
        }
        guard let columns = colorants(profile) else { return nil }
        let toLinear = ColourProfile.xyzToLinear
        func row(_ r: SIMD3<Double>) -> SIMD3<Float> {
            SIMD3(Float((r * columns[0]).sum()), Float((r * columns[1]).sum()), Float((r * columns[2]).sum()))
        }
        return (tables, (row(toLinear[0]), row(toLinear[1]), row(toLinear[2])))
    }

    /// A matrix/TRC profile's colorants: its red, green and blue in XYZ (D50), the columns of its matrix.
    package static func colorants(_ profile: ColourProfile) -> [SIMD3<Double>]? {
        var columns = [SIMD3<Double>]()
        for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
            guard let raw = cmsReadTag(profile.handle, tag) else { return nil }
            let xyz = raw.assumingMemoryBound(to: cmsCIEXYZ.self).pointee
            columns.append(SIMD3(xyz.X, xyz.Y, xyz.Z))
        }
        return columns
    }

    /// Converts `width` pixels at `source` into `destination` (4 floats a pixel); `scratch` holds 3 floats a pixel.
    package func convert(_ source: UnsafeRawPointer, into destination: UnsafeMutablePointer<Float>, width: Int,
                        scratch: UnsafeMutablePointer<Float>) {
        if let shaper {
            convertMatrixShaper(source, into: destination, width: width, shaper.tables, shaper.rows)
            return
        }
        cmsDoTransform(transform, source, scratch, UInt32(width))
        let channels = format.channels
        for x in 0..<width {
            var a: Float = 1
            if format.hasAlpha && !inks {
                a = format.bytesPerSample == 1
                    ? Float(source.load(fromByteOffset: x * channels + channels - 1, as: UInt8.self)) / 255
                    : Float(source.load(fromByteOffset: (x * channels + channels - 1) * 2, as: UInt16.self)) / 65535
            }
            let xyz = scratch + x * 3
            let v = WorkingEncoding.fromXYZ(SIMD3(xyz[0], xyz[1], xyz[2]), space: space) * a
            let out = destination + x * 4
            out[0] = v.x
            out[1] = v.y
            out[2] = v.z
            out[3] = a
        }
    }
}

extension InputColourTransform {
    private func convertMatrixShaper(_ source: UnsafeRawPointer, into destination: UnsafeMutablePointer<Float>, width: Int,
                                     _ tables: [[Float]], _ rows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)) {
        let alpha = format.hasAlpha
        // Three passes over the row, each a tight loop: straight linear colour, then (sRGB working space) the
        // encoding, then premultiplication. One loop calling the encoder per sample spent a third of a tagged
        // JPEG thumbnail's time in calls.
        if let sums8 {
            sums8.convert(source.assumingMemoryBound(to: UInt8.self), channels: format.channels, into: destination, count: width)
        } else {
            convertSixteen(source.assumingMemoryBound(to: UInt16.self), into: destination, width: width, tables, rows)
        }
        if space == .srgb {
            // In-gamut values through the engine's encode table, the rest (wide gamut) through the formula.
            SRGB.encodeColour(destination, pixels: width, outside: WorkingEncoding.encode)
        }
        if alpha {
            for x in 0..<width {
                let out = destination + x * 4
                out[0] *= out[3]; out[1] *= out[3]; out[2] *= out[3]
            }
        }
    }

    private func convertSixteen(_ source: UnsafePointer<UInt16>, into destination: UnsafeMutablePointer<Float>, width: Int,
                                _ tables: [[Float]], _ rows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)) {
        let channels = format.channels, alpha = format.hasAlpha
        // The matrix as nine scalars: three multiply-adds an output, no horizontal sums of short vectors (which
        // cost a tagged 20 MP photo 40 ms of conversion).
        let (m00, m01, m02) = (rows.0.x, rows.0.y, rows.0.z)
        let (m10, m11, m12) = (rows.1.x, rows.1.y, rows.1.z)
        let (m20, m21, m22) = (rows.2.x, rows.2.y, rows.2.z)
        tables[0].withUnsafeBufferPointer { r in
            tables[1].withUnsafeBufferPointer { g in
                tables[2].withUnsafeBufferPointer { b in
                    for x in 0..<width {
                        let p = source + x * channels
                        let (red, green, blue) = (r[Int(p[0])], g[Int(p[1])], b[Int(p[2])])
                        let a = alpha ? Float(p[3]) / 65535 : 1
                        let out = destination + x * 4
                        out[0] = m00 * red + m01 * green + m02 * blue
                        out[1] = m10 * red + m11 * green + m12 * blue
                        out[2] = m20 * red + m21 * green + m22 * blue
                        out[3] = a
                    }
                }
            }
        }
    }
}

/// Working values to rows encoded in an output profile (8/16-bit, grey or RGB, straight alpha).
package final class OutputColourTransform: @unchecked Sendable {
    private let transform: cmsHTRANSFORM
    package let format: PixelFormat
    private let space: WorkingSpace

    package init(to profile: ColourProfile, format: PixelFormat, space: WorkingSpace) throws {
        self.space = space
        let output = ColourFormats.integer(channels: format.channels, alpha: false, bytes: format.bytesPerSample)
        let colourOnly = ColourFormats.integer(channels: format.hasAlpha ? format.channels - 1 : format.channels,
                                               alpha: false, bytes: format.bytesPerSample)
        guard profile.space == (format.channels <= 2 ? .grey : .rgb),
              let transform = cmsCreateTransform(ColourProfile.xyz.handle, ColourFormats.xyzFloat, profile.handle,
                                                 format.hasAlpha ? colourOnly : output,
                                                 UInt32(INTENT_PERCEPTUAL), UInt32(cmsFLAGS_NOCACHE)) else {
            throw CodecError(kind: .invalidRequest, path: profile.name,
                             message: "cannot write \(format.rawValue) in the profile \"\(profile.name)\"")
        }
        self.transform = transform
        self.format = format
    }

    deinit { cmsDeleteTransform(transform) }

    /// Floats of scratch `convert` needs a pixel: 3 for XYZ, 1 for alpha, 2 for packed colour samples.
    package static let scratchFloatsPerPixel = 6

    /// Converts `width` working pixels into `destination`; `scratch` holds `scratchFloatsPerPixel` floats a pixel.
    package func convert(_ source: UnsafePointer<Float>, into destination: UnsafeMutableRawPointer, width: Int,
                        scratch: UnsafeMutablePointer<Float>) {
        let alphas = UnsafeMutableRawPointer(scratch + width * 3)
        for x in 0..<width {
            let p = source + x * 4
            let a = max(0, min(1, p[3]))
            let inverse: Float = p[3] > 0 ? 1 / p[3] : 0
            let xyz = WorkingEncoding.toXYZ(SIMD3(p[0], p[1], p[2]) * inverse, space: space)
            scratch[x * 3] = xyz.x
            scratch[x * 3 + 1] = xyz.y
            scratch[x * 3 + 2] = xyz.z
            alphas.storeBytes(of: a, toByteOffset: x * 4, as: Float.self)
        }
        guard format.hasAlpha else {
            cmsDoTransform(transform, scratch, destination, UInt32(width))
            return
        }
        // Colour into a packed buffer, then interleaved with alpha.
        let colour = format.channels - 1, bytes = format.bytesPerSample
        let packed = UnsafeMutableRawPointer(scratch + width * 4)
        cmsDoTransform(transform, scratch, packed, UInt32(width))
        for x in 0..<width {
            let a = alphas.load(fromByteOffset: x * 4, as: Float.self)
            let out = destination + x * format.channels * bytes
            out.copyMemory(from: packed + x * colour * bytes, byteCount: colour * bytes)
            if bytes == 1 { out.storeBytes(of: UInt8(a * 255 + 0.5), toByteOffset: colour, as: UInt8.self) }
            else { out.storeBytes(of: UInt16(a * 65535 + 0.5), toByteOffset: colour * 2, as: UInt16.self) }
        }
    }
}

/// A decoder whose rows are converted from the file's profile into working values (rgba32f) as they are read.
package final class ColourManagedDecoder: ImageDecoder, ConvertingRowSource {
    package let inner: any ImageDecoder
    /// The profile an output keeping the input's colour is written in.
    package let profile: ColourProfile
    /// What the samples are when they are HDR (PQ or HLG), nil otherwise.
    package let hdr: HDRSource?
    private let transform: any WorkingRowConversion
    /// Stored rows and the conversion's scratch, grown by `readRows` to the most rows asked for at once.
    private var raw: UnsafeMutableRawPointer?
    private var scratch: UnsafeMutablePointer<Float>?
    private var capacity = 0

    /// A CMYK profile on a decoder that stores inks takes the inks themselves (`deliverInks()`).
    package init(_ inner: any ImageDecoder, profile: ColourProfile, space: WorkingSpace) throws {
        self.inner = inner
        self.profile = profile
        let inks = profile.space == .cmyk && inner.storesInks
        // The conversion first: when Little CMS cannot build it, the decoder is left as it was (read as sRGB).
        transform = try InputColourTransform(from: profile, format: inks ? PixelFormat.rgba8 : inner.format, space: space, inks: inks)
        hdr = nil
        if inks { try inner.deliverInks() }
    }

    /// Float samples (`FloatInputTransform`): through `profile`, else linear sRGB (what an output that keeps the
    /// input's colour is then written in).
    package init(_ inner: any ImageDecoder, floatsIn profile: ColourProfile?, space: WorkingSpace) throws {
        self.inner = inner
        self.profile = profile ?? .linearSRGB
        hdr = nil
        transform = try FloatInputTransform(from: profile, space: space)
    }

    /// HDR samples (`HDRInputTransform`); an output that keeps the input's colour is written on the same
    /// primaries with BT.709's SDR curve, after the tone map. Nil when the primaries or layout are not ones this
    /// conversion takes.
    package init?(_ inner: any ImageDecoder, hdr: HDRSource, space: WorkingSpace) {
        guard let transform = HDRInputTransform(hdr, format: inner.format, space: space),
              let profile = ColourProfile.codingPoints(ColourCodingPoints(primaries: hdr.primaries, transfer: 1)) else { return nil }
        self.inner = inner
        self.profile = profile
        self.hdr = hdr
        self.transform = transform
    }

    deinit {
        raw?.deallocate()
        scratch?.deallocate()
    }

    package var path: String { inner.path }
    package var formatName: String { inner.formatName }
    package var metadata: ImageMetadata { inner.metadata }
    package var width: Int { inner.width }
    package var height: Int { inner.height }
    package var storedWidth: Int { inner.storedWidth }
    package var storedHeight: Int { inner.storedHeight }
    package var format: PixelFormat { .rgba32f }
    package var storedFormat: PixelFormat { inner.storedFormat }
    package var storesFloats: Bool { inner.storesFloats }
    package var nextRow: Int { inner.nextRow }
    package var decodeReductions: DecodeReductions { inner.decodeReductions }
    package func reduce(by factor: Int) throws { try inner.reduce(by: factor) }
    package func reduce(toWidth width: Int, height: Int) throws { try inner.reduce(toWidth: width, height: height) }
    package var fileWarnings: [String] { inner.fileWarnings }
    package var decodingBytes: Double { inner.decodingBytes }

    package var storedRows: ImageRowSource { inner }

    package func convertRow(_ stored: UnsafeRawPointer, into destination: UnsafeMutablePointer<Float>, width: Int,
                            scratch: UnsafeMutablePointer<Float>) {
        transform.convert(stored, into: destination, width: width, scratch: scratch)
    }

    package func readRows(into destination: UnsafeMutableRawPointer, stride: Int, count: Int) throws {
        let rowBytes = width * inner.format.bytesPerPixel
        if count > capacity || raw == nil {
            raw?.deallocate()
            scratch?.deallocate()
            raw = UnsafeMutableRawPointer.allocate(byteCount: max(1, count * rowBytes), alignment: 64)
            scratch = UnsafeMutablePointer<Float>.allocate(capacity: max(1, count * width * 3))
            capacity = count
        }
        guard let raw, let scratch else { return }
        try inner.readRows(into: raw, stride: rowBytes, count: count)
        let width = width, transform = transform
        WorkerPool.forEachChunk(0..<count) { rows in
            for row in rows {
                transform.convert(raw + row * rowBytes, into: (destination + row * stride).assumingMemoryBound(to: Float.self),
                                  width: width, scratch: scratch + row * width * 3)
            }
        }
    }
}

/// An encoder fed working values (rgba32f) that writes them in `profile` through `inner`.
package final class ColourManagedEncoder: ImageEncoder {
    package let inner: any ImageEncoder
    private let transform: OutputColourTransform
    private let width: Int
    /// Reused from strip to strip: converted rows and the transform's scratch.
    private var out = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 64)
    private var scratch = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var capacity = 0

    package init(_ inner: any ImageEncoder, width: Int, format: PixelFormat, profile: ColourProfile, space: WorkingSpace) throws {
        self.inner = inner
        self.width = width
        transform = try OutputColourTransform(to: profile, format: format, space: space)
    }

    deinit {
        out.deallocate()
        scratch.deallocate()
    }

    package func writeRows(_ source: UnsafeRawPointer, stride: Int, count: Int) throws {
        let rowBytes = width * transform.format.bytesPerPixel
        let perRow = width * OutputColourTransform.scratchFloatsPerPixel
        if count > capacity {
            out.deallocate()
            scratch.deallocate()
            out = UnsafeMutableRawPointer.allocate(byteCount: max(1, count * rowBytes), alignment: 64)
            scratch = UnsafeMutablePointer<Float>.allocate(capacity: max(1, count * perRow))
            capacity = count
        }
        let width = width, transform = transform, out = out, scratch = scratch
        WorkerPool.forEachChunk(0..<count) { rows in
            for row in rows {
                transform.convert((source + row * stride).assumingMemoryBound(to: Float.self), into: out + row * rowBytes,
                                  width: width, scratch: scratch + row * perRow)
            }
        }
        try inner.writeRows(out, stride: rowBytes, count: count)
    }

    package func finish() throws { try inner.finish() }
    package func abandon() { inner.abandon() }
}
