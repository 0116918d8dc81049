/// Float samples as files store them (16-, 32- or 64-bit IEEE, native byte order, 1–4 interleaved: grey or RGB,
/// alpha last) made what the engine holds for floats: premultiplied linear RGBA, grey repeated into R, G and B,
/// min-is-white turned (1 − v), straight alpha multiplied in, NaN read as 0, magnitudes stopped at `limit`.
package enum FloatSamples {
    /// The largest magnitude a float sample is read as (half float's largest): infinities and huge values stop
    /// here, so sums and products in the filters stay finite.
    package static let limit: Float = 65504

    /// `count` pixels of `samples` samples of `bits` bits to RGBA floats (16 bytes a pixel).
    package static func working(_ stored: [UInt8], bits: Int, samples: Int, hasAlpha: Bool, associated: Bool,
                                minIsWhite: Bool, count: Int) -> [UInt8] {
        let grey = samples - (hasAlpha ? 1 : 0) == 1
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
                    return v.isNaN ? 0 : min(max(v, -limit), limit)
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
