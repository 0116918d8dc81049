import ColourProfiles
import FilterCore

/// The profile a render writes its output in.
public enum OutputProfile: Sendable {
    /// sRGB, tagged (PNG: an sRGB chunk; JPEG: untagged, which means sRGB). The default.
    case sRGB
    /// The main input's profile, converted back into and embedded (sRGB when the input has none).
    case keepInput
    /// A given profile, converted into and embedded.
    case profile(ColourProfile)
}

/// How inputs' colour descriptions become conversions: an embedded ICC profile first, else PNG's sRGB chunk
/// (nothing to do), else its gAMA/cHRM; untagged means sRGB. A profile that is sRGB in all but name is skipped.
enum InputProfiles {
    static func managed(_ decoder: any ImageDecoder, space: WorkingSpace, notes: inout [String]) throws -> any ImageDecoder {
        let metadata = decoder.metadata
        let profile: ColourProfile
        let file = FileText.escaped(decoder.path)
        if decoder.storesFloats { return try floats(decoder, space: space, notes: &notes) }
        if let icc = metadata.iccProfile {
            do { profile = try ColourProfile(icc: icc, source: decoder.path) } catch {
                notes.append("warning: \(file): its embedded ICC profile cannot be used (\((error as? CodecError)?.message ?? "\(error)")); read as sRGB")
                return decoder
            }
            if let why = profile.unusableClass {
                notes.append("warning: \(file): its embedded ICC profile \"\(profile.name)\" is \(why); read as sRGB")
                return decoder
            }
        } else if let points = metadata.codingPoints, !points.isSRGB {
            if let curve = HDR.Curve(transfer: points.transfer) {
                // PQ's declared peak, within what the curve holds (above SDR white, or nothing maps); HLG is relative
                // light, shown on BT.2100's nominal display whatever the file says.
                let declared = curve == .pq ? metadata.peakLuminance : nil
                let peak = declared.map { min(max($0, HDR.referenceWhite), 10000) } ?? HDR.nominalPeak
                let source = HDRSource(curve: curve, primaries: points.primaries == 2 ? 1 : points.primaries, peak: peak)
                guard let managed = ColourManagedDecoder(decoder, hdr: source, space: space) else {
                    throw CodecError(kind: .unsupported, path: decoder.path, message: "its colour is HDR (the BT.2100 "
                        + curve.name + " curve) on primaries \(points.primaries) in \(decoder.format.rawValue) samples, which this "
                        + "build does not map into the working space (it maps RGB samples on the primaries of ITU-T H.273)")
                }
                return managed
            }
            guard let described = ColourProfile.codingPoints(points) else {
                notes.append("warning: \(file): its colour code points (primaries \(points.primaries), transfer "
                             + "\(points.transfer)) are not ones this build converts; read as sRGB")
                return decoder
            }
            profile = described
        } else if !metadata.declaresSRGB, let gamma = metadata.gamma,
                  let described = ColourProfile.png(gamma: gamma, chromaticities: metadata.chromaticities,
                                                    grey: decoder.format.channels <= 2) {
            profile = described
        } else {
            return decoder
        }
        let expected: ColourProfile.Space = decoder.storesInks ? .cmyk : (decoder.format.channels <= 2 ? .grey : .rgb)
        guard profile.space == expected else {
            notes.append("note: \(file): its \(profile.space) profile \"\(profile.name)\" does not describe its "
                         + "\(expected) pixels; read as sRGB")
            return decoder
        }
        if profile.isSRGB { return decoder }
        do { return try ColourManagedDecoder(decoder, profile: profile, space: space) } catch {
            notes.append("warning: \(file): its embedded ICC profile \"\(profile.name)\" cannot be used (\((error as? CodecError)?.message ?? "\(error)")); read as sRGB")
            return decoder
        }
    }

    /// A float decoder's rows (linear light premultiplied, the file's values): through its RGB profile when it has
    /// a usable one, else taken as linear sRGB — the working values themselves in the linear working space.
    static func floats(_ decoder: any ImageDecoder, space: WorkingSpace, notes: inout [String]) throws -> any ImageDecoder {
        var profile: ColourProfile?
        if let icc = decoder.metadata.iccProfile {
            let file = FileText.escaped(decoder.path)
            if let described = try? ColourProfile(icc: icc, source: decoder.path), described.unusableClass == nil, described.space == .rgb {
                profile = described
            } else {
                notes.append("warning: \(file): its embedded ICC profile is not an RGB profile this build applies to float "
                             + "samples; read as linear sRGB")
            }
        }
        if profile == nil && space == .linear { return decoder }
        do { return try ColourManagedDecoder(decoder, floatsIn: profile, space: space) } catch {
            notes.append("warning: \(FileText.escaped(decoder.path)): its embedded ICC profile cannot be used for float samples; read as linear sRGB")
            return space == .linear ? decoder : try ColourManagedDecoder(decoder, floatsIn: nil, space: space)
        }
    }
}
