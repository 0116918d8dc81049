import CLCMS
import FilterCore
import Foundation

/// An ICC profile, parsed by Little CMS. Built from a file's embedded bytes, from PNG's gAMA/cHRM chunks, or one
/// of the spaces the engine works in (sRGB, and linear light on sRGB primaries).
public final class ColourProfile: @unchecked Sendable {  // the handle is read-only after init
    public enum Space: Sendable {
        case rgb, grey, cmyk, other
        /// In a message: "RGB", "grey", "CMYK".
        package var name: String { [.rgb: "RGB", .grey: "grey", .cmyk: "CMYK"][self] ?? "other" }
    }

    let handle: cmsHPROFILE
    /// The profile as ICC bytes (what is embedded in outputs).
    package let data: [UInt8]
    public let space: Space
    /// The profile's own description ("Adobe RGB (1998)", "sRGB IEC61966-2.1", …), control characters escaped
    /// (it comes from a file, and is printed).
    public let name: String

    /// Reads an ICC file (for `--profile FILE`).
    public convenience init(contentsOfFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CodecError(kind: .io, path: path, message: "cannot read the profile: \(String(cString: strerror(errno)))")
        }
        try self.init(icc: Array(data), source: path)
    }

    /// Parses ICC bytes; throws `CodecError(.corrupt)` with Little CMS's reason when they are not a usable profile.
    package init(icc bytes: [UInt8], source: String) throws {
        ColourProfile.silenceLittleCMS
        guard bytes.count >= 132, let handle = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else {
            throw CodecError(kind: .corrupt, path: source, message: "the ICC profile (\(bytes.count) bytes) cannot be read")
        }
        self.handle = handle
        data = bytes
        space = Self.space(of: handle)
        name = Self.description(of: handle)
        if space == .other {
            throw CodecError(kind: .corrupt, path: source, message: "the ICC profile \"\(name)\" is not an RGB, grey or CMYK profile")
        }
    }

    private init(handle: cmsHPROFILE) {
        self.handle = handle
        space = Self.space(of: handle)
        name = Self.description(of: handle)
        var length: UInt32 = 0
        cmsSaveProfileToMem(handle, nil, &length)
        var bytes = [UInt8](repeating: 0, count: Int(length))
        cmsSaveProfileToMem(handle, &bytes, &length)
        data = bytes
    }

    deinit { cmsCloseProfile(handle) }

    /// sRGB IEC 61966-2.1 (what untagged images are, and what outputs are tagged by default).
    public static let sRGB = ColourProfile(handle: cmsCreate_sRGBProfile())

    /// Linear light on sRGB/Rec. 709 primaries, D65: the working space.
    package static let linearSRGB: ColourProfile = {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1), Green: cmsCIExyY(x: 0.30, y: 0.60, Y: 1),
                                        Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
        let linear = cmsBuildGamma(nil, 1.0)
        defer { cmsFreeToneCurve(linear) }
        var curves: [OpaquePointer?] = [linear, linear, linear]
        return ColourProfile(handle: cmsCreateRGBProfile(&white, &primaries, &curves)!)
    }()

    /// The ICC connection space, CIE XYZ relative to D50: conversions meet here, so the step into and out of
    /// linear sRGB is a matrix that never clips.
    static let xyz = ColourProfile(handle: cmsCreateXYZProfile())

    /// Linear sRGB → XYZ (D50, Bradford-adapted as Little CMS adapts it), as three columns; read from Little CMS
    /// on in-range unit vectors, so the engine's matrix and the library's profiles agree.
    static let linearToXYZ: [SIMD3<Double>] = {
        guard let transform = cmsCreateTransform(linearSRGB.handle, ColourFormats.rgbDouble, xyz.handle,
                                                 ColourFormats.xyzDouble, UInt32(INTENT_RELATIVE_COLORIMETRIC),
                                                 UInt32(cmsFLAGS_NOCACHE | cmsFLAGS_NOOPTIMIZE)) else { fatalError("Little CMS cannot build linear sRGB") }
        defer { cmsDeleteTransform(transform) }
        let input: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        var output = [Double](repeating: 0, count: 9)
        cmsDoTransform(transform, input, &output, 3)
        return (0..<3).map { SIMD3(output[3 * $0], output[3 * $0 + 1], output[3 * $0 + 2]) }
    }()

    /// XYZ (D50) → linear sRGB: the inverse of `linearToXYZ`, as three rows.
    static let xyzToLinear: [SIMD3<Double>] = {
        let c = linearToXYZ  // columns
        let (a, b, d) = (c[0], c[1], c[2])
        // rows of the inverse = cross products of the columns over the determinant
        let det = a.x * (b.y * d.z - b.z * d.y) - b.x * (a.y * d.z - a.z * d.y) + d.x * (a.y * b.z - a.z * b.y)
        func cross(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
        }
        return [cross(b, d) / det, cross(d, a) / det, cross(a, b) / det]
    }()

    /// The profile PNG's gAMA (file gamma, e.g. 0.45455) and cHRM (white point and primaries as x, y) describe;
    /// sRGB's primaries when cHRM is absent; a grey profile for grey images.
    package static func png(gamma: Double, chromaticities: [Double]?, grey: Bool = false) -> ColourProfile? {
        guard gamma > 0.01, gamma < 10 else { return nil }
        let c = chromaticities ?? [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]
        guard c.count == 8, c.allSatisfy({ $0 > 0 && $0 < 1 }) else { return nil }
        var white = cmsCIExyY(x: c[0], y: c[1], Y: 1)
        if grey {
            guard let curve = cmsBuildGamma(nil, 1 / gamma) else { return nil }
            defer { cmsFreeToneCurve(curve) }
            return cmsCreateGrayProfile(&white, curve).map { ColourProfile(handle: $0) }
        }
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: c[2], y: c[3], Y: 1), Green: cmsCIExyY(x: c[4], y: c[5], Y: 1),
                                        Blue: cmsCIExyY(x: c[6], y: c[7], Y: 1))
        guard let curve = cmsBuildGamma(nil, 1 / gamma) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        return cmsCreateRGBProfile(&white, &primaries, &curves).map { ColourProfile(handle: $0) }
    }

    /// ITU-T H.273 table 2: each primaries code point's white and red, green, blue (x, y).
    package static let h273Primaries: [Int: ((Double, Double), [(Double, Double)])] = {
        let d65 = (0.3127, 0.3290), illuminantC = (0.310, 0.316)
        return [
            1: (d65, [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]), 2: (d65, [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]),
            4: (illuminantC, [(0.67, 0.33), (0.21, 0.71), (0.14, 0.08)]),
            5: (d65, [(0.64, 0.33), (0.29, 0.60), (0.15, 0.06)]),
            6: (d65, [(0.630, 0.340), (0.310, 0.595), (0.155, 0.070)]), 7: (d65, [(0.630, 0.340), (0.310, 0.595), (0.155, 0.070)]),
            8: (illuminantC, [(0.681, 0.319), (0.243, 0.692), (0.145, 0.049)]),
            9: (d65, [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)]),
            11: ((0.314, 0.351), [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]),
            12: (d65, [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]),
            22: (d65, [(0.630, 0.340), (0.295, 0.605), (0.155, 0.077)]),
        ]
    }()

    /// The profile ITU-T H.273 code points describe (HEIF/AVIF nclx boxes): primaries from its table 2, the
    /// transfer curve's inverse from its table 3 (the inverse of BT.709's camera curve for 1, 6, 14 and 15, as
    /// browsers decode it). Nil for what has no ICC matrix/curve form here: XYZ primaries, logarithmic curves,
    /// and the HDR curves (PQ, HLG), whose values go beyond the SDR range.
    package static func codingPoints(_ points: ColourCodingPoints) -> ColourProfile? {
        let primaries = h273Primaries
        // Little CMS parametric curve type 4: Y = (aX + b)^g for X ≥ d, else cX. Parameters g, a, b, c, d.
        let rec709: [Double] = [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]
        let curves: [Int: [Double]] = [
            1: rec709, 6: rec709, 14: rec709, 15: rec709,
            2: [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045], 13: [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045],
            4: [2.2, 1, 0, 0, 0], 5: [2.8, 1, 0, 0, 0], 8: [1, 1, 0, 0, 0],
            7: [1 / 0.45, 1 / 1.1115, 0.1115 / 1.1115, 1 / 4.0, 0.0913],
        ]
        guard let (w, rgb) = primaries[points.primaries], let parameters = curves[points.transfer],
              let curve = cmsBuildParametricToneCurve(nil, 4, parameters) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var white = cmsCIExyY(x: w.0, y: w.1, Y: 1)
        var triple = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: rgb[0].0, y: rgb[0].1, Y: 1), Green: cmsCIExyY(x: rgb[1].0, y: rgb[1].1, Y: 1),
                                     Blue: cmsCIExyY(x: rgb[2].0, y: rgb[2].1, Y: 1))
        var three: [OpaquePointer?] = [curve, curve, curve]
        guard let handle = cmsCreateRGBProfile(&white, &triple, &three) else { return nil }
        // Named for messages and for outputs that keep the input's profile.
        if let text = cmsMLUalloc(nil, 1) {
            cmsMLUsetASCII(text, "en", "US", "H.273 primaries \(points.primaries), transfer \(points.transfer)")
            cmsWriteTag(handle, cmsSigProfileDescriptionTag, UnsafeRawPointer(text))
            cmsMLUfree(text)
        }
        return ColourProfile(handle: handle)
    }

    /// Whether converting from this profile to sRGB moves no colour by an 8-bit code or more: files embed sRGB
    /// profiles of their own, such as HP's 1998 "sRGB IEC61966-2.1" (its colorants put pure green's red at 0.0020
    /// encoded, half a code, against the exact definition), and those skip the conversion. Checked on a grid.
    package lazy var isSRGB: Bool = {
        guard space == .rgb, let transform = cmsCreateTransform(handle, ColourFormats.rgbDouble, ColourProfile.sRGB.handle,
                                                                 ColourFormats.rgbDouble, UInt32(INTENT_PERCEPTUAL), UInt32(cmsFLAGS_NOCACHE))
        else { return false }
        defer { cmsDeleteTransform(transform) }
        var input = [Double](), steps = [0.0, 0.02, 0.2, 0.5, 0.8, 1.0]
        for r in steps { for g in steps { for b in steps { input += [r, g, b] } } }
        var output = [Double](repeating: 0, count: input.count)
        cmsDoTransform(transform, input, &output, UInt32(input.count / 3))
        return zip(input, output).allSatisfy { abs($0 - $1) < 1 / 255 }
    }()

    /// Whether the profile carries device-to-PCS lookup tables (A2B0–2, D2B0–2). Little CMS prefers them to the
    /// matrix/TRC tags when both are present ("XYZ LUT + matrix" profiles from calibration tools), so the engine's
    /// fast matrix path applies only where they are absent.
    package var hasLUT: Bool {
        [cmsSigAToB0Tag, cmsSigAToB1Tag, cmsSigAToB2Tag, cmsSigDToB0Tag, cmsSigDToB1Tag, cmsSigDToB2Tag]
            .contains { cmsIsTag(handle, $0) != 0 }
    }

    /// Why an embedded profile cannot describe an image's pixels (a device link, an abstract or named-colour
    /// profile), or nil for input, display, output and colour-space profiles.
    package var unusableClass: String? {
        switch cmsGetDeviceClass(handle) {
        case cmsSigInputClass, cmsSigDisplayClass, cmsSigOutputClass, cmsSigColorSpaceClass: return nil
        case cmsSigLinkClass: return "a device link (it converts between two devices, it does not describe one)"
        case cmsSigAbstractClass: return "an abstract profile (an effect, not a description of pixels)"
        case cmsSigNamedColorClass: return "a named-colour profile (a palette, not a description of pixels)"
        default: return "of an unknown device class"
        }
    }

    private static func space(of handle: cmsHPROFILE) -> Space {
        switch cmsGetColorSpace(handle) {
        case cmsSigRgbData: return .rgb
        case cmsSigGrayData: return .grey
        case cmsSigCmykData: return .cmyk
        default: return .other
        }
    }

    private static func description(of handle: cmsHPROFILE) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &buffer, UInt32(buffer.count))
        return count > 0 ? FileText.escaped(String(cString: buffer)) : "unnamed profile"
    }

    /// Little CMS logs errors through a handler; ours are reported as thrown errors instead.
    static let silenceLittleCMS: Void = { cmsSetLogErrorHandler { _, _, _ in } }()
}

/// Little CMS pixel-format words (lcms2.h builds them with macros Swift does not import).
enum ColourFormats {
    static let rgbSpace: UInt32 = 4 << 16, greySpace: UInt32 = 3 << 16
    static func integer(channels: Int, alpha: Bool, bytes: Int) -> UInt32 {
        let colour = alpha ? channels - 1 : channels
        return (colour == 1 ? greySpace : rgbSpace) | UInt32(colour) << 3 | UInt32(bytes) | (alpha ? 1 << 7 : 0)
    }
    /// CMYK inks, four bytes a pixel, 0 = no ink (Little CMS's TYPE_CMYK_8).
    static let cmyk8: UInt32 = 6 << 16 | 4 << 3 | 1
    /// Three floats a pixel.
    static let rgbFloat: UInt32 = 1 << 22 | rgbSpace | 3 << 3 | 4
    /// Three doubles a pixel (for checks).
    static let rgbDouble: UInt32 = 1 << 22 | rgbSpace | 3 << 3 | 0
    /// CIE XYZ, three floats or doubles a pixel.
    static let xyzFloat: UInt32 = 1 << 22 | 9 << 16 | 3 << 3 | 4
    static let xyzDouble: UInt32 = 1 << 22 | 9 << 16 | 3 << 3 | 0
}
