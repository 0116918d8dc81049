import Foundation

/// The sRGB transfer function (IEC 61966-2-1) and the lookup tables the row converters use.
package enum SRGB {
    /// Encoded [0, 1] → linear [0, 1], exact formula.
    @inlinable package static func toLinear(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// Linear [0, 1] → encoded [0, 1], exact formula.
    @inlinable package static func toEncoded(_ v: Double) -> Double {
        v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
    }

    /// Linear sRGB to CIE XYZ (IEC 61966-2-1 primaries, D65 white; Y of white 1).
    package static let toXYZ: [[Double]] = [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
                                            [0.0193339, 0.1191920, 0.9503041]]

    /// Linear value of every 8-bit code.
    package static let decode8: [Float] = (0..<256).map { Float(toLinear(Double($0) / 255)) }
    /// Linear value of every 16-bit code.
    package static let decode16: [Float] = (0..<65536).map { Float(toLinear(Double($0) / 65535)) }

    /// Encoded values sampled at `encodeSteps + 1` evenly spaced linear values; read with linear interpolation.
    /// 2^16 steps keep the interpolation error below 1e-7, so 8-bit round trips are exact and 16-bit within 1.
    package static let encodeSteps = 65536
    package static let encodeTable: [Float] = (0...encodeSteps).map {
        Float(toEncoded(Double($0) / Double(encodeSteps)))
    }

    /// 8-bit code of every linear value on a 1/65536 grid (read at the nearest grid point: at most 0.025 codes of
    /// error, so every code still round-trips exactly), saving the interpolation and rounding per sample.
    /// Built from the 255 grid points where the code steps up, each found by the exact formula near the step, not
    /// by a power per entry: 65 537 powers cost every process that writes 8-bit output from linear light ~1 ms.
    package static let encode8: [UInt8] = {
        func code(_ i: Int) -> Int { Int((toEncoded(Double(i) / Double(encodeSteps)) * 255).rounded()) }
        var table = [UInt8](repeating: 255, count: encodeSteps + 1)
        var start = 0
        for k in 1...255 {  // the first grid point whose code is k (codes never fall as the linear value rises)
            let estimate = Int((toLinear((Double(k) - 0.5) / 255) * Double(encodeSteps)).rounded(.up))
            var first = min(encodeSteps + 1, max(start, estimate))
            while first > start && code(first - 1) >= k { first -= 1 }
            while first <= encodeSteps && code(first) < k { first += 1 }
            for i in start..<first { table[i] = UInt8(k - 1) }
            start = first
        }
        return table
    }()

    /// `encode8` with 32-bit entries, which the AVX2 encode loop gathers eight at a time.
    package static let encode8Words: [Int32] = encode8.map { Int32($0) }

    /// Encodes the colour (not alpha) of `pixels` straight RGBA working pixels in place: values in [0, 1] through
    /// the table, others through `outside` (the extended formula for wide-gamut values).
    package static func encodeColour(_ values: UnsafeMutablePointer<Float>, pixels: Int, outside: (Float) -> Float) {
        encodeTable.withUnsafeBufferPointer { table in
            let lut = table.baseAddress!
            for x in 0..<pixels {
                let p = values + x * 4
                for c in 0..<3 {
                    let v = p[c]
                    p[c] = v >= 0 && v <= 1 ? encode(v, table: lut) : outside(v)
                }
            }
        }
    }

    /// Linear → encoded through the table; the input is clamped to [0, 1].
    @inlinable @inline(__always) package static func encode(_ x: Float, table: UnsafePointer<Float>) -> Float {
        let clamped = x > 0 ? (x < 1 ? x : 1) : 0
        let position = clamped * Float(encodeSteps)
        let index = Int(position)
        if index >= encodeSteps { return table[encodeSteps] }
        let fraction = position - Float(index)
        return table[index] + fraction * (table[index + 1] - table[index])
    }
}
