/// The eight flips and quarter turns as signed permutation matrices acting on pixel axes, so chains of them compose
/// by multiplication.
struct Orientation: Equatable {
    /// Row-major 2×2: (x′, y′) = m·(x, y), up to the offsets that keep coordinates inside the image.
    var m: (Int, Int, Int, Int)

    static func == (a: Orientation, b: Orientation) -> Bool { a.m == b.m }

    static let identity = Orientation(m: (1, 0, 0, 1))
    static let flipHorizontal = Orientation(m: (-1, 0, 0, 1))
    static let flipVertical = Orientation(m: (1, 0, 0, -1))
    static let rotate90 = Orientation(m: (0, -1, 1, 0))
    static let rotate180 = Orientation(m: (-1, 0, 0, -1))
    static let rotate270 = Orientation(m: (0, 1, -1, 0))
    static let transpose = Orientation(m: (0, 1, 1, 0))

    init(m: (Int, Int, Int, Int)) { self.m = m }

    init?(_ primitive: Primitive) {
        switch primitive {
        case .flip(let horizontal): self = horizontal ? .flipHorizontal : .flipVertical
        case .rotate(let turns): self = [.rotate90, .rotate180, .rotate270][turns - 1]
        case .transpose: self = .transpose
        default: return nil
        }
    }

    /// `self` applied after `first`.
    func after(_ first: Orientation) -> Orientation {
        let (a, b, c, d) = m, (e, f, g, h) = first.m
        return Orientation(m: (a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h))
    }

    /// The single primitive doing this (nil for the identity and for the anti-transpose, which takes two).
    var primitive: Primitive? {
        switch self {
        case .flipHorizontal: return .flip(horizontal: true)
        case .flipVertical: return .flip(horizontal: false)
        case .rotate90: return .rotate(quarterTurns: 1)
        case .rotate180: return .rotate(quarterTurns: 2)
        case .rotate270: return .rotate(quarterTurns: 3)
        case .transpose: return .transpose
        default: return nil
        }
    }

    /// Whether width and height swap.
    var swapsAxes: Bool { m.0 == 0 }
}
