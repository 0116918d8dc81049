/// Comparator networks selecting the median of `count` values (a (2r+1)² window), read by both backends: each pair
/// (a, b) puts the smaller value on wire a and the larger on wire b; afterwards wire count/2 holds the median.
/// Wires from `count` up to `size(count)` hold +∞.
package enum MedianNetwork {
    package static func size(_ count: Int) -> Int {
        var n = 1
        while n < count { n *= 2 }
        return n
    }

    private static let cache: [Int: [(Int, Int)]] = Dictionary(uniqueKeysWithValues: [25, 49].map { ($0, build($0)) })
        .merging([9: nine]) { $1 }

    /// The median of 9 in 19 compare-exchanges (Paeth's network; the CPU backend's 3×3 median writes it out).
    static let nine: [(Int, Int)] = [(1, 2), (4, 5), (7, 8), (0, 1), (3, 4), (6, 7), (1, 2), (4, 5), (7, 8), (0, 3),
                                     (5, 8), (4, 7), (3, 6), (1, 4), (2, 5), (4, 7), (4, 2), (6, 4), (4, 2)]

    package static func pairs(count: Int) -> [(Int, Int)] { cache[count] ?? build(count) }

    /// Batcher's odd–even merge sort on `size(count)` wires, less the exchanges whose larger wire is padding (its
    /// +∞ never moves, so they change nothing), then only the exchanges that can move a value into wire count/2
    /// (walking back from it). 113 exchanges for 25 values (153 with the padding's).
    package static func build(_ count: Int) -> [(Int, Int)] {
        let n = size(count)
        var network = [(Int, Int)]()
        var p = 1
        while p < n {
            var k = p
            while k >= 1 {
                var j = k % p
                while j + k < n {
                    for i in 0..<k where i + j + k < n && (i + j) / (2 * p) == (i + j + k) / (2 * p) {
                        network.append((i + j, i + j + k))
                    }
                    j += 2 * k
                }
                k /= 2
            }
            p *= 2
        }
        var needed = Set([count / 2])
        var kept = [(Int, Int)]()
        for (a, b) in network.reversed() where b < count && (needed.contains(a) || needed.contains(b)) {
            kept.append((a, b))
            needed.insert(a)
            needed.insert(b)
        }
        return kept.reversed()
    }
}
