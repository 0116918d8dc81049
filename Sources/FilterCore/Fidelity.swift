/// How close a thumbnail must stay to the exact resize of the full-size image, which decides how far a decoder may
/// shrink while it decodes (JPEG's DCT scaling, WebP's rescaler, a TIFF pyramid's levels) before the exact
/// resample finishes the shrink. Measured as PSNR of 8-bit results against the full decode resized exactly
/// (Lanczos 3), on the photos and sizes of `scripts/measure-fidelity.py` (BENCHMARKS.md, "Shrink on load by
/// fidelity").
public enum Fidelity: String, CaseIterable, Sendable, Codable {
    /// The full decode, resized exactly: no shrink on load and no box reduction ahead of the resample.
    case exact
    /// At least 40 dB against the exact resize (libvips `thumbnail`'s level): a JPEG may decode at 1/f while the
    /// exact resample still shrinks by 2 or more (measured at worst 50.3 dB in linear light, 54.0 dB in sRGB).
    /// The default.
    case high
    /// Speed first, as Pillow's draft mode and thumbor do: the decoder shrinks as far as it can while its result
    /// is still no smaller than the target, and takes its coarser ways (a JPEG's 4:2:0 chroma at 1/8 from each
    /// block's DC) (measured at worst 37.4 dB, on a 600 × 400 photo to 256 px at 1/2; 41.3 dB and more on the
    /// larger photos).
    case fast

    /// What the setting promises, for `--explain` and errors.
    public var promise: String {
        switch self {
        case .exact: return "identical to resizing the full decode"
        case .high: return "≥ 40 dB PSNR against resizing the full decode"
        case .fast: return "speed first, like Pillow's draft mode (37 dB or more measured)"
        }
    }
}
