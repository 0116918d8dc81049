import FilterCore
import Foundation

/// What a decoder's HDR samples are: the curve, the primaries (H.273 code point) and the peak they were graded to.
package struct HDRSource: Sendable, Equatable {
    package var curve: HDR.Curve
    package var primaries: Int
    package var peak: Double

    package init(curve: HDR.Curve, primaries: Int, peak: Double = HDR.nominalPeak) {
        self.curve = curve
        self.primaries = primaries
        self.peak = peak
    }

    /// Y of each primary in the primaries' own white (SMPTE RP 177's RGB → XYZ, middle row): for BT.2020
    /// BT.2100's 0.2627, 0.6780, 0.0593, the weights of HLG's OOTF.
    func luminanceWeights() -> SIMD3<Float> {
        guard let (white, rgb) = ColourProfile.h273Primaries[primaries] else { return SIMD3(0.2627, 0.6780, 0.0593) }
        func xyz(_ c: (Double, Double)) -> SIMD3<Double> { SIMD3(c.0 / c.1, 1, (1 - c.0 - c.1) / c.1) }
        let (r, g, b, w) = (xyz(rgb[0]), xyz(rgb[1]), xyz(rgb[2]), xyz(white))
        // The scales s with r·s.x + g·s.y + b·s.z = w (Cramer's rule); Y of each primary is its scale (Y = 1 above).
        func det(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>) -> Double {
            a.x * (b.y * c.z - b.z * c.y) - b.x * (a.y * c.z - a.z * c.y) + c.x * (a.y * b.z - a.z * b.y)
        }
        let d = det(r, g, b)
        return SIMD3(Float(det(w, g, b) / d), Float(det(r, w, b) / d), Float(det(r, g, w) / d))
    }

    /// The matrix from linear light on these primaries to linear sRGB (rows), through the same D50 connection
    /// Little CMS uses for every other profile; nil for primaries H.273 does not tabulate.
    func toWorkingRows() -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)? {
        guard let linear = ColourProfile.codingPoints(ColourCodingPoints(primaries: primaries, transfer: 8)) else { return nil }
        return InputColourTransform.matrixShaper(linear, levels: 2)?.1
    }
}

/// Rows of PQ or HLG samples (8/16-bit, as decoded) to working values: display light with 203 cd/m² at 1.0, on
/// sRGB primaries, unbounded (highlights above 1, wide-gamut colours below 0), premultiplied. PQ is absolute:
/// each code's light is its EOTF. HLG is relative: the inverse OETF gives scene light, and BT.2100's OOTF
/// (system gamma on the scene luminance) shows it on the nominal 1000 cd/m² display, where 75 % signal is the
/// reference white.
package final class HDRInputTransform: WorkingRowConversion, @unchecked Sendable {
    package let source: HDRSource
    package let format: PixelFormat
    private let space: WorkingSpace
    /// Each code's light: working units for PQ, scene light for HLG.
    private let table: [Float]
    private let rows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
    /// HLG: the scene luminance weights of the source primaries, and the OOTF's gain and exponent.
    private let luminance: SIMD3<Float>
    private let gain: Float, exponent: Float

    package init?(_ source: HDRSource, format: PixelFormat, space: WorkingSpace) {
        guard format.channels >= 3, !format.isFloat, let rows = source.toWorkingRows() else { return nil }
        self.source = source
        self.format = format
        self.space = space
        self.rows = rows
        let levels = format.bytesPerSample == 1 ? 256 : 65536
        let top = Double(levels - 1)
        switch source.curve {
        case .pq:
            table = (0..<levels).map { Float(HDR.pqToNits(Double($0) / top) / HDR.referenceWhite) }
            luminance = .zero
            (gain, exponent) = (1, 0)
        case .hlg:
            table = (0..<levels).map { Float(HDR.hlgToScene(Double($0) / top)) }
            luminance = source.luminanceWeights()
            gain = Float(source.peak / HDR.referenceWhite)
            exponent = Float(HDR.hlgGamma(peak: source.peak) - 1)
        }
    }

    package func convert(_ source: UnsafeRawPointer, into destination: UnsafeMutablePointer<Float>, width: Int,
                         scratch: UnsafeMutablePointer<Float>) {
        let channels = format.channels, alpha = format.hasAlpha, wide = format.bytesPerSample == 2
        let hlg = self.source.curve == .hlg
        let (m0, m1, m2) = rows
        table.withUnsafeBufferPointer { t in
            for x in 0..<width {
                var rgb: SIMD3<Float>, a: Float = 1
                if wide {
                    let p = source.assumingMemoryBound(to: UInt16.self) + x * channels
                    rgb = SIMD3(t[Int(p[0])], t[Int(p[1])], t[Int(p[2])])
                    if alpha { a = Float(p[3]) / 65535 }
                } else {
                    let p = source.assumingMemoryBound(to: UInt8.self) + x * channels
                    rgb = SIMD3(t[Int(p[0])], t[Int(p[1])], t[Int(p[2])])
                    if alpha { a = Float(p[3]) / 255 }
                }
                if hlg {
                    let y = (luminance * rgb).sum()
                    rgb *= y > 0 ? gain * Foundation.pow(y, exponent) : 0
                }
                var v = SIMD3((m0 * rgb).sum(), (m1 * rgb).sum(), (m2 * rgb).sum())
                v = WorkingEncoding.fromLinear(v, space: space)
                v *= a
                let out = destination + x * 4
                out[0] = v.x; out[1] = v.y; out[2] = v.z; out[3] = a
            }
        }
    }
}

/// BT.2390's tone map on working values, for an SDR output of an HDR render: each pixel's largest linear
/// component is mapped from the source's peak into SDR white (203 cd/m², working 1.0) and all three are scaled by
/// the same ratio (BT.2390's maxRGB variant), so hue and saturation stay while highlights roll off. The ratio is
/// tabulated over the float's exponent and top mantissa bits (1024 steps an octave), interpolated.
package struct SDRToneMap: Sendable {
    package let map: HDR.ToneMap
    private let ratios: [Float]
    /// Working values below this are left as they are (under the knee at every peak used); above the top the
    /// target's peak is reached.
    static let lowest: Float = 0x1p-14, highest: Float = 0x1p6
    static let stepsPerOctave = 1024

    package init(sourcePeak: Double) {
        let map = HDR.ToneMap(sourcePeak: sourcePeak, targetPeak: HDR.referenceWhite)
        self.map = map
        let octaves = 20, steps = Self.stepsPerOctave
        ratios = (0...(octaves * steps)).map { i in
            let x = Double(Self.lowest) * pow(2, Double(i / steps)) * (1 + Double(i % steps) / Double(steps))
            return Float(map(x * HDR.referenceWhite) / HDR.referenceWhite / x)
        }
    }

    /// The mapped value of one working value (linear light, 1.0 = 203 cd/m²), for tests and single colours.
    package func ratio(_ value: Float) -> Float {
        guard value > Self.lowest else { return 1 }
        guard value < Self.highest else { return 1 / value }
        let offset = Int(value.bitPattern - Self.lowest.bitPattern)
        let i = offset >> 13, f = Float(offset & 0x1FFF) / 8192
        return ratios.withUnsafeBufferPointer { $0[i] + ($0[i + 1] - $0[i]) * f }
    }

    /// Maps `width` premultiplied working pixels in place.
    package func apply(_ row: UnsafeMutablePointer<Float>, width: Int, space: WorkingSpace) {
        for x in 0..<width {
            let p = row + x * 4
            let a = p[3]
            guard a > 0 else { continue }
            var v = SIMD3(p[0], p[1], p[2]) / a
            v = WorkingEncoding.toLinear(v, space: space)
            v *= ratio(max(v.x, max(v.y, v.z)))
            v = WorkingEncoding.fromLinear(v, space: space)
            v *= a
            p[0] = v.x; p[1] = v.y; p[2] = v.z
        }
    }
}

extension FloatRowEncoder {
    /// Working values tone-mapped (`SDRToneMap`) and handed on, still working values, to `inner` (a
    /// `ColourManagedEncoder`, which encodes them for the file).
    package static func toneMapping(_ inner: any ImageEncoder, width: Int, sourcePeak: Double, space: WorkingSpace) -> FloatRowEncoder {
        let toneMap = SDRToneMap(sourcePeak: sourcePeak)
        return FloatRowEncoder(inner, width: width, floatsPerPixel: 4) { input, out, width in
            out.update(from: input, count: width * 4)
            toneMap.apply(out, width: width, space: space)
        }
    }
}

/// An encoder fed working values (rgba32f) that writes them as BT.2100 PQ on BT.2020 primaries, 16-bit RGB(A)
/// with straight alpha, into an encoder that declares those code points (AVIF at 10 or 12 bits).
package final class PQEncoder: ImageEncoder {
    package let inner: any ImageEncoder
    private let width: Int
    private let alpha: Bool
    private let space: WorkingSpace
    /// Linear sRGB → linear BT.2020 (rows).
    private let rows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)

    package init(_ inner: any ImageEncoder, width: Int, alpha: Bool, space: WorkingSpace) {
        self.inner = inner
        self.width = width
        self.alpha = alpha
        self.space = space
        rows = HDRSource(curve: .pq, primaries: 9).toWorkingRows().map(Self.inverse) ?? (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
    }

    static func inverse(_ m: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        let (a, b, c) = m  // rows
        func cross(_ u: SIMD3<Float>, _ v: SIMD3<Float>) -> SIMD3<Float> {
            SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
        }
        let det = (a * cross(b, c)).sum()
        // Columns of the inverse are the cross products of the rows; transposed into rows.
        let (x, y, z) = (cross(b, c) / det, cross(c, a) / det, cross(a, b) / det)
        return (SIMD3(x.x, y.x, z.x), SIMD3(x.y, y.y, z.y), SIMD3(x.z, y.z, z.z))
    }

    /// The 16-bit PQ code of a linear working value (an AVIF encode costs far more than these powers).
    static func code(_ value: Float) -> UInt16 {
        UInt16((HDR.nitsToPQ(Double(value) * HDR.referenceWhite) * 65535).rounded())
    }

    package func writeRows(_ source: UnsafeRawPointer, stride: Int, count: Int) throws {
        let channels = alpha ? 4 : 3
        var out = [UInt16](repeating: 0, count: width * channels * count)
        let (m0, m1, m2) = rows
        out.withUnsafeMutableBufferPointer { target in
            for row in 0..<count {
                let input = (source + row * stride).assumingMemoryBound(to: Float.self)
                for x in 0..<width {
                    let p = input + x * 4
                    let a = max(0, min(1, p[3]))
                    var v = a > 0 ? SIMD3(p[0], p[1], p[2]) / p[3] : .zero
                    v = WorkingEncoding.toLinear(v, space: space)
                    let wide = SIMD3((m0 * v).sum(), (m1 * v).sum(), (m2 * v).sum())
                    let o = (row * width + x) * channels
                    target[o] = Self.code(wide.x); target[o + 1] = Self.code(wide.y); target[o + 2] = Self.code(wide.z)
                    if alpha { target[o + 3] = UInt16(a * 65535 + 0.5) }
                }
            }
        }
        try out.withUnsafeBytes { try inner.writeRows($0.baseAddress!, stride: width * channels * 2, count: count) }
    }

    package func finish() throws { try inner.finish() }
    package func abandon() { inner.abandon() }
}
