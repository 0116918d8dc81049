/// The six flips and turns besides none, declared once: the optimizer composes them (their matrices), both
/// backends map pixels by them (the CPU's `ReorientStage`, the shaders' `REORIENT_*` codes, in this order) and EXIF's
/// eight orientations are turned upright with them.
package enum Reorientation: String, CaseIterable, Sendable {
    case flipHorizontal, flipVertical
    /// Quarter turns clockwise: one, two, three.
    case rotate90, rotate180, rotate270
    /// Rows become columns (the main diagonal stays).
    case transpose

    /// The flip, turn or transpose a primitive is; nil for every other primitive.
    package init?(_ primitive: Primitive) {
        switch primitive {
        case .flip(let horizontal): self = horizontal ? .flipHorizontal : .flipVertical
        case .rotate(let turns): self.init(quarterTurns: turns)
        case .transpose: self = .transpose
        default: return nil
        }
    }

    /// `turns` quarter turns clockwise (1…3; any other count is nil).
    package init?(quarterTurns turns: Int) {
        guard (1...3).contains(turns) else { return nil }
        self = [.rotate90, .rotate180, .rotate270][turns - 1]
    }

    /// The primitive doing it.
    package var primitive: Primitive {
        switch self {
        case .flipHorizontal: return .flip(horizontal: true)
        case .flipVertical: return .flip(horizontal: false)
        case .rotate90: return .rotate(quarterTurns: 1)
        case .rotate180: return .rotate(quarterTurns: 2)
        case .rotate270: return .rotate(quarterTurns: 3)
        case .transpose: return .transpose
        }
    }

    /// Row-major 2×2 signed permutation: (x′, y′) = m·(x, y), up to the offsets that keep coordinates inside the image.
    package var matrix: (Int, Int, Int, Int) {
        switch self {
        case .flipHorizontal: return (-1, 0, 0, 1)
        case .flipVertical: return (1, 0, 0, -1)
        case .rotate90: return (0, -1, 1, 0)
        case .rotate180: return (-1, 0, 0, -1)
        case .rotate270: return (0, 1, -1, 0)
        case .transpose: return (0, 1, 1, 0)
        }
    }

    /// Whether width and height swap.
    package var swapsAxes: Bool { matrix.0 == 0 }

    /// The steps that turn an image stored with EXIF orientation `value` upright (TIFF 6.0 / Exif 2.3: 2 mirrored,
    /// 3 upside down, 4 mirrored upside down, 5 transposed, 6 needs a clockwise quarter turn, 7 transversed, 8 needs
    /// an anticlockwise quarter turn); none for 1 and for values outside 1…8.
    package static func uprighting(exif value: Int) -> [Reorientation] {
        switch value {
        case 2: return [.flipHorizontal]
        case 3: return [.rotate180]
        case 4: return [.flipVertical]
        case 5: return [.transpose]
        case 6: return [.rotate90]
        // Transverse as an anticlockwise turn then a mirror: one step that holds the whole image (the turn) and one
        // that streams (the mirror), where transpose + half turn held it twice (946 → 500 MiB on a 20 MP photo).
        case 7: return [.rotate270, .flipHorizontal]
        case 8: return [.rotate270]
        default: return []
        }
    }
}
