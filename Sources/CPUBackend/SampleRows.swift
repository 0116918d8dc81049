import FilterCore

/// 8-bit samples without alpha in the sRGB working space that a stage reads itself (`Plan.Node.readsSamples`): a
/// code's working value is code / 255, computed in the loops.
struct SampleRows {
    let channels: Int

    init?(_ representation: Representation, space: WorkingSpace) {
        guard space == .srgb, case .samples(let format, _) = representation, format.depth == 8, !format.isFloat,
              !format.hasAlpha else { return nil }
        channels = format.channels
    }
}
