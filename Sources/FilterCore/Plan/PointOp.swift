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
    /// RGB ↦ mix(v, lut(v), strength), v clamped to the LUT's domain (a table in another encoding than the working
    /// values is wrapped in `.transfer` steps).
    case lut(ColourLUT, tetrahedral: Bool, strength: Float)
    /// RGB through the sRGB transfer function: `.encode` linear → encoded (clamped to [0, 1]), `.decode` back.
    case transfer(TransferConversion)
}


extension PointOp {
    /// True when each colour channel's result depends on that channel alone and not on the position, and alpha is
    /// untouched: a chain of such steps on stored samples is one lookup table per channel.
    package var isPerChannel: Bool {
        switch self {
        case .gamma, .levels, .curves, .posterize: return true
        case .matrix(let matrix):
            let m = matrix.m
            let offDiagonal = [1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14]
            return offDiagonal.allSatisfy { m[$0] == 0 } && m[15] == 1 && matrix.offset[3] == 0
        case .clamp: return true  // its alpha half is a no-op on stored alpha, already in [0, 1]
        case .lut(let lut, _, _): return lut.shape == .oneD
        case .transfer: return true
        case .threshold, .vibrance, .vignette, .clearTransparent: return false
        }
    }
}

/// How a step that works in one encoding reaches it from the working values: none, the sRGB encoding of linear
/// working values (and back), or the linear values of sRGB-encoded ones (and back).
package enum TransferConversion: Int, Equatable, Sendable {
    case none, encode, decode

    /// The conversion back.
    package var inverse: TransferConversion { self == .encode ? .decode : self == .decode ? .encode : .none }
}

/// What the planner and the optimizer ask of a step (its CPU form is in CPUBackend, its GLSL in PointKernelSource).
extension PointOp {
    /// True when the operation changes no pixel. Levels and curves at their defaults are not identities: they clamp
    /// to [0, 1], which matters after filters that overshoot (a random-chain test caught this).
    package var isIdentity: Bool {
        switch self {
        case .matrix(let m): return m.isIdentity
        case .gamma(let p): return p == 1
        case .vibrance(let amount): return amount == 0
        case .vignette(_, let intensity): return intensity == 0
        case .lut(_, _, let strength): return strength == 0
        case .transfer(let conversion): return conversion == .none
        case .levels, .curves, .threshold, .posterize, .clearTransparent, .clamp: return false
        }
    }

    /// A step function: a tiny change of its input can move its output a whole step.
    package var isStep: Bool {
        switch self {
        case .threshold, .posterize: return true
        case .matrix, .gamma, .levels, .curves, .vibrance, .vignette, .clamp, .clearTransparent, .lut, .transfer: return false
        }
    }

    /// True when the operation can make an opaque pixel transparent (a matrix whose alpha row is not the
    /// identity). A clamp cannot: it keeps alpha 1 at 1, so an opaque photo stays opaque through it.
    package var changesAlpha: Bool {
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
