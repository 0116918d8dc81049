/// Takes a render's rows (8-bit samples, 1–4 channels) and keeps, without holding the image: a 256-bin histogram
/// and the sum of each channel, and the image box-averaged onto a grid that fits `maxSide`×`maxSide` (the small
/// copy placeholders and colour clusters are computed from).
package final class StatisticsSink: ImageRowSink {
    package let width: Int, height: Int, channels: Int
    package let gridWidth: Int, gridHeight: Int
    package private(set) var histograms: [[Int]]
    private var sums: [Double]
    private var cells: [Double]
    private var cellCounts: [Int]
    private var row = 0

    package init(width: Int, height: Int, channels: Int, maxSide: Int = 100) {
        self.width = width
        self.height = height
        self.channels = channels
        let scale = min(1, Double(maxSide) / Double(max(width, height)))
        gridWidth = max(1, Int((Double(width) * scale).rounded()))
        gridHeight = max(1, Int((Double(height) * scale).rounded()))
        histograms = Array(repeating: Array(repeating: 0, count: 256), count: channels)
        sums = Array(repeating: 0, count: channels)
        cells = Array(repeating: 0, count: gridWidth * gridHeight * channels)
        cellCounts = Array(repeating: 0, count: gridWidth * gridHeight)
    }

    /// Counts into local buffers, added to the stored arrays once a call: the stored arrays, touched per sample,
    /// cost a uniqueness and an exclusivity check each (half of an auto-levels analysis's time).
    package func writeRows(_ source: UnsafeRawPointer, stride: Int, count: Int) throws {
        let (width, height, channels, gridWidth, gridHeight) = (width, height, channels, gridWidth, gridHeight)
        var counts = [Int](repeating: 0, count: channels * 256)
        var cellSums = [Int](repeating: 0, count: gridWidth * channels)
        var cellPixels = [Int](repeating: 0, count: gridWidth)
        // The grid column of each pixel.
        let column = (0..<width).map { $0 * gridWidth / width }
        for r in 0..<count {
            let samples = (source + r * stride).assumingMemoryBound(to: UInt8.self)
            let cy = (row + r) * gridHeight / height
            cellSums.withUnsafeMutableBufferPointer { sums in
                counts.withUnsafeMutableBufferPointer { counts in
                    cellPixels.withUnsafeMutableBufferPointer { pixels in
                        for i in sums.indices { sums[i] = 0 }
                        for i in pixels.indices { pixels[i] = 0 }
                        for x in 0..<width {
                            let cell = column[x]
                            pixels[cell] += 1
                            for c in 0..<channels {
                                let v = Int(samples[x * channels + c])
                                counts[c * 256 + v] += 1
                                sums[cell * channels + c] += v
                            }
                        }
                    }
                }
            }
            for i in 0..<gridWidth {
                cellCounts[cy * gridWidth + i] += cellPixels[i]
                for c in 0..<channels { cells[(cy * gridWidth + i) * channels + c] += Double(cellSums[i * channels + c]) }
            }
        }
        row += count
        for c in 0..<channels {
            for v in 0..<256 where counts[c * 256 + v] != 0 {
                histograms[c][v] += counts[c * 256 + v]
                sums[c] += Double(v * counts[c * 256 + v])
            }
        }
    }

    /// The mean of each channel, in 0...1.
    package var means: [Double] { sums.map { $0 / Double(max(1, width * height)) / 255 } }

    /// The grid as 8-bit RGBA (grey repeated into RGB, alpha 255 where the image has none).
    package var reducedRGBA: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(cellCounts.count * 4)
        for (cell, n) in cellCounts.enumerated() {
            let v = (0..<channels).map { UInt8(min(255, (cells[cell * channels + $0] / Double(max(n, 1))).rounded())) }
            switch channels {
            case 1: out += [v[0], v[0], v[0], 255]
            case 2: out += [v[0], v[0], v[0], v[1]]
            case 3: out += v + [255]
            default: out += v
            }
        }
        return out
    }
}

/// The main colours of an image: k-means in CIE L*a*b* over 8-bit sRGB pixels (alpha below ½ ignored), seeded with
/// the pixel nearest the mean and then each pixel farthest from the seeds so far, 20 iterations; each colour is the
/// mean sRGB code of its cluster, with the share of pixels it holds, largest first.
package enum DominantColours {
    package static func clusters(rgba: [UInt8], count k: Int) -> [(rgb: [Int], share: Double)] {
        var points = [SIMD3<Double>](), codes = [SIMD3<Double>]()
        for i in stride(from: 0, to: rgba.count, by: 4) where rgba[i + 3] >= 128 {
            let lab = SmartCrop.lab(rgba[i], rgba[i + 1], rgba[i + 2])
            points.append(SIMD3(lab.l, lab.a, lab.b))
            codes.append(SIMD3(Double(rgba[i]), Double(rgba[i + 1]), Double(rgba[i + 2])))
        }
        guard !points.isEmpty, k > 0 else { return [] }
        func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { let d = a - b; return (d * d).sum() }
        let mean = points.reduce(SIMD3<Double>(), +) / Double(points.count)
        var centres = [points[points.indices.min { distance(points[$0], mean) < distance(points[$1], mean) }!]]
        var nearest = points.map { distance($0, centres[0]) }
        while centres.count < min(k, points.count) {
            let far = nearest.indices.max { nearest[$0] < nearest[$1] }!
            guard nearest[far] > 0 else { break }  // fewer distinct colours than k
            centres.append(points[far])
            for i in points.indices { nearest[i] = min(nearest[i], distance(points[i], points[far])) }
        }
        var assignment = [Int](repeating: 0, count: points.count)
        for _ in 0..<20 {
            for i in points.indices {
                assignment[i] = centres.indices.min { distance(points[i], centres[$0]) < distance(points[i], centres[$1]) }!
            }
            var sums = [SIMD3<Double>](repeating: .zero, count: centres.count), counts = [Int](repeating: 0, count: centres.count)
            for i in points.indices { sums[assignment[i]] += points[i]; counts[assignment[i]] += 1 }
            for c in centres.indices where counts[c] > 0 { centres[c] = sums[c] / Double(counts[c]) }
        }
        var rgbSums = [SIMD3<Double>](repeating: .zero, count: centres.count), counts = [Int](repeating: 0, count: centres.count)
        for i in points.indices { rgbSums[assignment[i]] += codes[i]; counts[assignment[i]] += 1 }
        return centres.indices.filter { counts[$0] > 0 }
            .map { c in (rgbSums[c] / Double(counts[c]), Double(counts[c]) / Double(points.count)) }
            .sorted { $0.1 > $1.1 }
            .map { (rgb: [Int($0.0.x.rounded()), Int($0.0.y.rounded()), Int($0.0.z.rounded())], share: $0.1) }
    }
}
