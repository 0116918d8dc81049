/// 8-bit RGB(A) pixels to four floats each as the sum of three table entries, one a channel: entry c × 256 + code
/// holds that code's curve value times channel c's column (a colour matrix's column, or a unit vector), and red's
/// entries carry alpha 1. Three loads, two vector adds and one 16-byte store a pixel — the same products summed in
/// the same order as a matrix applied to the three curve values, so the same floats.
package struct ChannelSumTable: Sendable {
    private let entries: [SIMD4<Float>]

    /// `curves[c][code]` for each of the three channels (256 codes), times `columns[c]`.
    package init(curves: [[Float]], columns: [SIMD4<Float>]) {
        entries = (0..<3).flatMap { c in
            curves[c].map { value in
                var entry = columns[c] * value
                entry.w = c == 0 ? 1 : 0
                return entry
            }
        }
    }

    /// The same curve for every channel, each value in its own lane (adding zeros is exact).
    package init(curve: [Float]) {
        self.init(curves: [curve, curve, curve], columns: [SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0)])
    }

    /// Converts `count` pixels of `channels` bytes (3, or 4 with alpha last, stored straight) into `destination`,
    /// alpha (code / 255) in the fourth float; nothing is premultiplied.
    package func convert(_ source: UnsafePointer<UInt8>, channels: Int, into destination: UnsafeMutablePointer<Float>,
                         count: Int) {
        entries.withUnsafeBufferPointer { table in
            guard let t = table.baseAddress else { return }
            let out = UnsafeMutableRawPointer(destination)
            if channels == 4 {
                for x in 0..<count {
                    let p = source + x * 4
                    var v = t[Int(p[0])] + t[256 + Int(p[1])] + t[512 + Int(p[2])]
                    v.w = Float(p[3]) / 255
                    out.storeBytes(of: v, toByteOffset: x * 16, as: SIMD4<Float>.self)
                }
            } else {
                for x in 0..<count {
                    let p = source + x * channels
                    let v = t[Int(p[0])] + t[256 + Int(p[1])] + t[512 + Int(p[2])]
                    out.storeBytes(of: v, toByteOffset: x * 16, as: SIMD4<Float>.self)
                }
            }
        }
    }
}
