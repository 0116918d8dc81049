import Foundation

/// A per-pixel operation on straight (unpremultiplied) colour. Chains of these run as one fused pass.
package enum PointOp: Equatable, Sendable {
    case matrix(ColorMatrix)
    /// v ↦ sign(v)·|v|^power on RGB.
    case gamma(Float)
    /// v ↦ outBlack + (outWhite − outBlack)·clamp((v − inBlack)/(inWhite − inBlack), 0, 1)^(1/gamma).
    case levels(inBlack: Float, inWhite: Float, gamma: Float, outBlack: Float, outWhite: Float)
    /// Per-channel curve, then the master curve; nil curves are identities.
    case curves(master: ToneCurve?, red: ToneCurve?, green: ToneCurve?, blue: ToneCurve?)
    /// RGB ↦ 1 where luminance ≥ level, else 0.
    case threshold(Float)
    /// v ↦ round(clamp(v, 0, 1)·(levels − 1))/(levels − 1).
    case posterize(Float)
    /// Saturation boost weighted towards unsaturated pixels: k = amount·(1 − (max − min)); v ↦ Y + (v − Y)(1 + k).
    case vibrance(Float)
    /// RGB ↦ ·(1 − intensity·min(d/radius, 1)²), d = distance from the centre over the half-diagonal.
    case vignette(radius: Float, intensity: Float)
    /// RGB ↦ clamp(v, min, max), alpha ↦ clamp(α, 0, 1): what a pipeline that clamps after every step does.
    case clamp(min: Float, max: Float)
    /// RGB ↦ 0 where alpha is 0: what storing a premultiplied pixel between two per-pixel steps does, kept when the
    /// optimizer fuses them.
    case clearTransparent
}

extension PointOp {
    /// Applies the operation to one straight-alpha pixel at (x, y) of a width×height image.
    @inlinable
    package func apply(_ v: SIMD4<Float>, x: Int, y: Int, width: Int, height: Int) -> SIMD4<Float> {
        switch self {
        case .matrix(let m):
            let (c0, c1, c2, c3) = m.columns
            var out: SIMD4<Float> = m.offset
            out += c0 * v[0]
            out += c1 * v[1]
            out += c2 * v[2]
            out += c3 * v[3]
            return out
        case .gamma(let p):
            var out = FastMath.signedPow(v, p)
            out[3] = v[3]
            return out
        case let .levels(inBlack, inWhite, gamma, outBlack, outWhite):
            var t = (v - inBlack) / (inWhite - inBlack)
            t = t.replacing(with: 0, where: t .< 0)
            t = t.replacing(with: 1, where: t .> 1)
            var out = outBlack + (outWhite - outBlack) * (gamma == 1 ? t : FastMath.pow(t, 1 / gamma))
            out[3] = v[3]
            return out
        case let .curves(master, red, green, blue):
            var out = v
            if let red { out[0] = red(out[0]) }
            if let green { out[1] = green(out[1]) }
            if let blue { out[2] = blue(out[2]) }
            if let master { for c in 0..<3 { out[c] = master(out[c]) } }
            return out
        case .threshold(let level):
            let y = v[0] * ColorMatrix.luma[0] + v[1] * ColorMatrix.luma[1] + v[2] * ColorMatrix.luma[2]
            let t: Float = y >= level ? 1 : 0
            return SIMD4(t, t, t, v[3])
        case .posterize(let levels):
            var out = v
            for c in 0..<3 {
                let clamped = v[c] > 0 ? (v[c] < 1 ? v[c] : 1) : 0
                out[c] = (clamped * (levels - 1)).rounded(.toNearestOrAwayFromZero) / (levels - 1)
            }
            return out
        case .vibrance(let amount):
            let y = v[0] * ColorMatrix.luma[0] + v[1] * ColorMatrix.luma[1] + v[2] * ColorMatrix.luma[2]
            var spread = max(v[0], max(v[1], v[2])) - min(v[0], min(v[1], v[2]))
            spread = spread > 0 ? (spread < 1 ? spread : 1) : 0
            let k = 1 + amount * (1 - spread)
            var out = v
            for c in 0..<3 { out[c] = y + (v[c] - y) * k }
            return out
        case .clearTransparent:
            return v[3] != 0 ? v : SIMD4(0, 0, 0, v[3])
        case let .clamp(low, high):
            var out = v.replacing(with: SIMD4(repeating: low), where: v .< low)
            out = out.replacing(with: SIMD4(repeating: high), where: out .> high)
            out[3] = v[3] > 0 ? (v[3] < 1 ? v[3] : 1) : 0
            return out
        case let .vignette(radius, intensity):
            let cx = Float(width) / 2, cy = Float(height) / 2
            let dx = Float(x) + 0.5 - cx, dy = Float(y) + 0.5 - cy
            let d = (dx * dx + dy * dy).squareRoot() / (cx * cx + cy * cy).squareRoot()
            let t = radius > 0 ? min(d / radius, 1) : 1
            let f = 1 - intensity * t * t
            return SIMD4(v[0] * f, v[1] * f, v[2] * f, v[3])
        }
    }

    /// True when the operation changes no pixel. Levels and curves at their defaults are not identities: they clamp
    /// to [0, 1], which matters after filters that overshoot (a random-chain test caught this).
    package var isIdentity: Bool {
        switch self {
        case .matrix(let m): return m.isIdentity
        case .gamma(let p): return p == 1
        case .vibrance(let amount): return amount == 0
        case .vignette(_, let intensity): return intensity == 0
        case .levels, .curves, .threshold, .posterize, .clearTransparent, .clamp: return false
        }
    }

    /// True when the operation can change alpha (a matrix whose alpha row is not the identity).
    package var changesAlpha: Bool {
        if case .clamp = self { return true }
        guard case .matrix(let m) = self else { return false }
        return m.m[12...15] != [0, 0, 0, 1] || m.offset[3] != 0
    }

    /// True when the operation can give a fully transparent pixel some opacity (its colour then matters).
    package var canRaiseZeroAlpha: Bool {
        guard case .matrix(let m) = self else { return false }
        return m.m[12] != 0 || m.m[13] != 0 || m.m[14] != 0 || m.offset[3] != 0
    }

    /// True when the operation reads the pixel position.
    package var usesPosition: Bool {
        if case .vignette = self { return true }
        return false
    }
}
