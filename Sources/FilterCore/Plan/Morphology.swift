/// Grey-level morphology with a flat structuring element (Gonzalez & Woods, "Digital Image Processing", 9.6):
/// dilation is each channel's maximum over the element centred on the pixel, erosion its minimum. Pixels outside
/// the image are left out of the window, which for a maximum or minimum is the same as replicating the edge.
package struct Morphology: Equatable, Sendable {
    package enum Operation: String, Sendable { case dilate, erode }
    package enum Shape: String, CaseIterable, Sendable { case square, disc }

    package var operation: Operation
    package var radius: Int
    package var shape: Shape

    package init(_ operation: Operation, radius: Int, shape: Shape) {
        self.operation = operation
        self.radius = radius
        self.shape = shape
    }

    /// The element's half-width on each row offset −r…r (index dy + r): r for the square; for the disc the largest
    /// w with w² + dy² ≤ r², so the element is every pixel within distance r of the centre. Both backends read it.
    package var halfWidths: [Int] {
        (-radius...radius).map { dy in
            guard shape == .disc else { return radius }
            let room = radius * radius - dy * dy
            var w = Int(Double(room).squareRoot())
            while w * w > room { w -= 1 }
            while (w + 1) * (w + 1) <= room { w += 1 }
            return w
        }
    }

    /// Pixels in the element.
    package var count: Int { halfWidths.reduce(0) { $0 + 2 * $1 + 1 } }
}
