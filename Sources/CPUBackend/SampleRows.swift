import FilterCore

/// 8-bit samples without alpha that a stage reads itself (`Plan.Node.readsSamples`): samples a pixel, the working
/// value of each code, and whether that value is code / 255 (the sRGB working space), which the loops compute
/// rather than look up.
struct SampleRows {
    let channels: Int
    let table: [Float]
    let unit: Bool

    init?(_ representation: Representation, space: WorkingSpace) {
        guard case .samples(let format, _) = representation, format.depth == 8, !format.isFloat, !format.hasAlpha else {
            return nil
        }
        channels = format.channels
        unit = space == .srgb
        table = space == .linear ? SRGB.decode8 : (0..<256).map { Float($0) / 255 }
    }
}
