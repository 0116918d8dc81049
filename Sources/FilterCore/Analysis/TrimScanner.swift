/// Finds the bounding box of the pixels that differ from a background, row by row as a render writes them (8-bit
/// RGBA, straight alpha): the image is never held. A pixel differs when a channel of its colour premultiplied by
/// alpha, or its alpha, is more than `threshold` codes from the background's.
package final class TrimScanner: ImageRowSink {
    package let width: Int
    let threshold: Double
    private var background: SIMD4<Double>?
    private var row = 0
    private var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1

    /// `background` nil: the first pixel written (the top-left).
    package init(width: Int, threshold: Double, background: RGBA?) {
        self.width = width
        self.threshold = threshold
        self.background = background.map { Self.premultiplied(SIMD4($0.r * 255, $0.g * 255, $0.b * 255, $0.a * 255)) }
    }

    static func premultiplied(_ p: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4(p.x * p.w / 255, p.y * p.w / 255, p.z * p.w / 255, p.w)
    }

    package func writeRows(_ source: UnsafeRawPointer, stride: Int, count: Int) throws {
        for r in 0..<count {
            let pixels = (source + r * stride).assumingMemoryBound(to: UInt8.self)
            func pixel(_ x: Int) -> SIMD4<Double> {
                Self.premultiplied(SIMD4(Double(pixels[4 * x]), Double(pixels[4 * x + 1]), Double(pixels[4 * x + 2]),
                                         Double(pixels[4 * x + 3])))
            }
            let bg = background ?? pixel(0)
            background = bg
            var first = -1, last = -1
            for x in 0..<width {
                let d = pixel(x) - bg
                if max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) > threshold {
                    if first < 0 { first = x }
                    last = x
                }
            }
            if first >= 0 {
                minX = min(minX, first)
                maxX = max(maxX, last)
                minY = min(minY, row)
                maxY = row
            }
            row += 1
        }
    }

    /// The box found, or the whole image when no pixel differs.
    package var box: (x: Int, y: Int, width: Int, height: Int) {
        guard maxX >= 0 else { return (0, 0, width, row) }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }
}
