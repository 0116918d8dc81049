import CTIFFShim
import FilterCore

extension TIFFDecoder {
    /// The largest magnitude a float sample is read as (half float's largest): infinities and huge values stop
    /// here, so sums and products in the filters stay finite.
    static let floatLimit: Float = 65504

    /// Float samples as decoded (16/32/64-bit, native byte order, 1–4 interleaved) to premultiplied RGBA floats:
    /// grey repeated into R, G and B, min-is-white turned (1 − v), unassociated alpha multiplied in, NaN read as 0.
    static func workingFloats(_ stored: [UInt8], info: fr_tiff_info, width: Int, height: Int) -> [UInt8] {
        let samples = Int(info.samples_per_pixel), bits = Int(info.bits_per_sample)
        let hasAlpha = info.extra_sample >= 0, grey = samples - (hasAlpha ? 1 : 0) == 1
        let associated = info.extra_sample == 1, minIsWhite = info.photometric == 0
        let count = width * height
        var out = [UInt8](repeating: 0, count: count * 16)
        stored.withUnsafeBytes { raw in
            out.withUnsafeMutableBytes { target in
                let floats = target.bindMemory(to: Float.self)
                func sample(_ i: Int) -> Float {
                    let v: Float
                    switch bits {
                    case 16: v = Float(raw.load(fromByteOffset: i * 2, as: Float16.self))
                    case 64: v = Float(raw.load(fromByteOffset: i * 8, as: Double.self))
                    default: v = raw.load(fromByteOffset: i * 4, as: Float.self)
                    }
                    return v.isNaN ? 0 : min(max(v, -floatLimit), floatLimit)
                }
                for p in 0..<count {
                    let base = p * samples
                    let a: Float = hasAlpha ? min(max(sample(base + samples - 1), 0), 1) : 1
                    var rgb = grey ? SIMD3(repeating: sample(base)) : SIMD3(sample(base), sample(base + 1), sample(base + 2))
                    if minIsWhite { rgb = 1 - rgb }
                    if !associated { rgb *= a }
                    floats[p * 4] = rgb.x
                    floats[p * 4 + 1] = rgb.y
                    floats[p * 4 + 2] = rgb.z
                    floats[p * 4 + 3] = a
                }
            }
        }
        return out
    }
}
