import CLCMS
import FilterCore
import Foundation

/// Float rows as a float decoder gives them (rgba32f, premultiplied, the file's values) to working values: through
/// the file's profile when it has one (Little CMS's float pipeline, unbounded for matrix/TRC profiles), else read
/// as linear light on sRGB primaries (scRGB, as float TIFFs without a profile are) and only encoded for the sRGB
/// working space.
package final class FloatInputTransform: WorkingRowConversion, @unchecked Sendable {
    private let transform: cmsHTRANSFORM?
    private let space: WorkingSpace

    package init(from profile: ColourProfile?, space: WorkingSpace) throws {
        self.space = space
        guard let profile else {
            transform = nil
            return
        }
        guard profile.space == .rgb, let transform = cmsCreateTransform(profile.handle, ColourFormats.rgbFloat, ColourProfile.xyz.handle,
                                                                         ColourFormats.xyzFloat, UInt32(INTENT_PERCEPTUAL),
                                                                         UInt32(cmsFLAGS_NOCACHE)) else {
            throw CodecError(kind: .corrupt, path: "", message: "Little CMS builds no conversion from it for float pixels")
        }
        self.transform = transform
    }

    deinit { if let transform { cmsDeleteTransform(transform) } }

    package func convert(_ source: UnsafeRawPointer, into destination: UnsafeMutablePointer<Float>, width: Int,
                         scratch: UnsafeMutablePointer<Float>) {
        let input = source.assumingMemoryBound(to: Float.self)
        guard let transform else {
            for x in 0..<width {
                let p = input + x * 4, out = destination + x * 4
                let a = p[3]
                var v = SIMD3(p[0], p[1], p[2])
                if space == .srgb && a > 0 {
                    v /= a
                    v = WorkingEncoding.fromLinear(v, space: space) * a
                }
                out[0] = v.x; out[1] = v.y; out[2] = v.z; out[3] = a
            }
            return
        }
        for x in 0..<width {
            let p = input + x * 4
            let inverse: Float = p[3] > 0 ? 1 / p[3] : 0
            scratch[x * 3] = p[0] * inverse
            scratch[x * 3 + 1] = p[1] * inverse
            scratch[x * 3 + 2] = p[2] * inverse
        }
        cmsDoTransform(transform, scratch, scratch, UInt32(width))
        for x in 0..<width {
            let a = input[x * 4 + 3]
            let v = WorkingEncoding.fromXYZ(SIMD3(scratch[x * 3], scratch[x * 3 + 1], scratch[x * 3 + 2]), space: space) * a
            let out = destination + x * 4
            out[0] = v.x; out[1] = v.y; out[2] = v.z; out[3] = a
        }
    }
}

/// An encoder fed working values (rgba32f) that converts each row (`convert`: the row, its target, the width) into
/// `floatsPerPixel` floats a pixel, rows shared out over the cores, and hands them on to `inner`.
package final class FloatRowEncoder: ImageEncoder {
    package typealias Conversion = @Sendable (UnsafePointer<Float>, UnsafeMutablePointer<Float>, Int) -> Void
    package let inner: any ImageEncoder
    private let width: Int
    private let floatsPerPixel: Int
    private let convert: Conversion
    private var rows = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var capacity = 0

    package init(_ inner: any ImageEncoder, width: Int, floatsPerPixel: Int, convert: @escaping Conversion) {
        self.inner = inner
        self.width = width
        self.floatsPerPixel = floatsPerPixel
        self.convert = convert
    }

    deinit { rows.deallocate() }

    package func writeRows(_ source: UnsafeRawPointer, stride: Int, count: Int) throws {
        let floats = width * floatsPerPixel
        if count > capacity {
            rows.deallocate()
            rows = .allocate(capacity: max(1, count * floats))
            capacity = count
        }
        let rows = rows, width = width, convert = convert
        WorkerPool.forEachChunk(0..<count) { chunk in
            for row in chunk { convert((source + row * stride).assumingMemoryBound(to: Float.self), rows + row * floats, width) }
        }
        try inner.writeRows(rows, stride: floats * 4, count: count)
    }

    package func finish() throws { try inner.finish() }
    package func abandon() { inner.abandon() }
}

extension FloatRowEncoder {
    /// Working values to `inner` (a float TIFF) as straight linear light on sRGB primaries, unclamped: 1 to 4
    /// floats a pixel as `channels` says (grey as Rec. 709 luminance), alpha clamped to 0…1. Nothing is rounded or
    /// clipped, so highlights and wide-gamut colours survive the file.
    package static func linear(_ inner: any ImageEncoder, width: Int, channels: Int, space: WorkingSpace) -> FloatRowEncoder {
        FloatRowEncoder(inner, width: width, floatsPerPixel: channels) { input, out, width in
            for x in 0..<width {
                let p = input + x * 4, o = out + x * channels
                let a = p[3]
                var v = a > 0 ? SIMD3(p[0], p[1], p[2]) / a : .zero
                v = WorkingEncoding.toLinear(v, space: space)
                let alpha = min(max(a, 0), 1)
                switch channels {
                case 1, 2:
                    o[0] = 0.2126 * v.x + 0.7152 * v.y + 0.0722 * v.z
                    if channels == 2 { o[1] = alpha }
                default:
                    o[0] = v.x; o[1] = v.y; o[2] = v.z
                    if channels == 4 { o[3] = alpha }
                }
            }
        }
    }
}
