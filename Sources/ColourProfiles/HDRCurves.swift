import FilterCore
import Foundation

/// The HDR transfer curves of ITU-R BT.2100 (PQ from SMPTE ST 2084, HLG) and the tone map of ITU-R BT.2390, in
/// float64 as published. Working values put BT.2408's HDR reference white, 203 cd/m², at 1.0: an SDR white and a
/// graded HDR white land on the same value, and highlights go above 1.
package enum HDR {
    /// BT.2408's HDR reference white (cd/m²): working value 1.0.
    package static let referenceWhite = 203.0
    /// The peak an HDR source is taken to be graded to when the file says nothing else (cd/m²): BT.2100's nominal
    /// HLG display, and the mastering peak BT.2408 reports as the common PQ grade.
    package static let nominalPeak = 1000.0

    package enum Curve: Sendable, Equatable {
        case pq, hlg

        /// The curve ITU-T H.273 transfer code points name (16 PQ, 18 HLG), if either.
        package init?(transfer: Int) {
            switch transfer {
            case 16: self = .pq
            case 18: self = .hlg
            default: return nil
            }
        }

        package var name: String { self == .pq ? "PQ" : "HLG" }
    }

    // SMPTE ST 2084 constants.
    static let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
    static let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32

    /// PQ's EOTF: a signal in 0…1 to display light in cd/m² (0…10 000).
    package static func pqToNits(_ signal: Double) -> Double {
        let p = pow(min(max(signal, 0), 1), 1 / m2)
        return 10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// PQ's inverse EOTF: display light in cd/m² to a signal in 0…1.
    package static func nitsToPQ(_ nits: Double) -> Double {
        let y = pow(min(max(nits, 0), 10000) / 10000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    // BT.2100 HLG constants.
    static let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)

    /// HLG's inverse OETF: a signal in 0…1 to scene light in 0…1.
    package static func hlgToScene(_ signal: Double) -> Double {
        let e = min(max(signal, 0), 1)
        return e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
    }

    /// HLG's OETF: scene light in 0…1 to a signal in 0…1.
    package static func sceneToHLG(_ scene: Double) -> Double {
        let e = min(max(scene, 0), 1)
        return e <= 1.0 / 12 ? (3 * e).squareRoot() : a * log(12 * e - b) + c
    }

    /// HLG's system gamma for a display peak of `peak` cd/m² (BT.2100 note 5f: 1.2 at 1000 cd/m²).
    package static func hlgGamma(peak: Double) -> Double { 1.2 + 0.42 * log10(peak / 1000) }

    /// BT.2390's EETF for a source graded to `sourcePeak` shown on a display of `targetPeak` (cd/m², black 0 on
    /// both): below the knee light is unchanged; above it, a Hermite spline in the PQ domain rolls off into the
    /// target's peak. Light above the source's peak lands on the target's peak.
    package struct ToneMap: Sendable, Equatable {
        package let sourcePeak: Double
        package let targetPeak: Double
        let sourceSignal: Double
        let maxLum: Double
        let knee: Double

        package init(sourcePeak: Double, targetPeak: Double) {
            self.sourcePeak = sourcePeak
            self.targetPeak = targetPeak
            sourceSignal = HDR.nitsToPQ(sourcePeak)
            maxLum = HDR.nitsToPQ(targetPeak) / sourceSignal
            knee = 1.5 * maxLum - 0.5
        }

        /// Whether the target shows the whole source as it is.
        package var isIdentity: Bool { targetPeak >= sourcePeak }

        /// Display light in cd/m² mapped for the target.
        package func callAsFunction(_ nits: Double) -> Double {
            if isIdentity { return min(nits, targetPeak) }
            let e1 = min(HDR.nitsToPQ(nits) / sourceSignal, 1)
            guard e1 > knee else { return nits }
            let t = (e1 - knee) / (1 - knee), t2 = t * t, t3 = t2 * t
            let e2 = (2 * t3 - 3 * t2 + 1) * knee + (t3 - 2 * t2 + t) * (1 - knee) + (-2 * t3 + 3 * t2) * maxLum
            return HDR.pqToNits(e2 * sourceSignal)
        }
    }
}
