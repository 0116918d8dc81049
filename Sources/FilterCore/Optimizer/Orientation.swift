/// The eight flips and quarter turns as signed permutation matrices acting on pixel axes (`Reorientation`'s, and
/// the identity and anti-transpose, which no one primitive does), so chains of them compose by multiplication.
struct Orientation: Equatable {
    /// Row-major 2×2: (x′, y′) = m·(x, y), up to the offsets that keep coordinates inside the image.
    var m: (Int, Int, Int, Int)

    static func == (a: Orientation, b: Orientation) -> Bool { a.m == b.m }

    static let identity = Orientation(m: (1, 0, 0, 1))

    init(m: (Int, Int, Int, Int)) { self.m = m }

    init?(_ primitive: Primitive) {
        guard let mapping = Reorientation(primitive) else { return nil }
        m = mapping.matrix
    }

    /// `self` applied after `first`.
    func after(_ first: Orientation) -> Orientation {
        let (a, b, c, d) = m, (e, f, g, h) = first.m
        return Orientation(m: (a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h))
    }

    /// The single primitive doing this (nil for the identity and for the anti-transpose, which takes two).
    var primitive: Primitive? { Reorientation.allCases.first { $0.matrix == m }?.primitive }

    /// Whether width and height swap.
    var swapsAxes: Bool { m.0 == 0 }
}
