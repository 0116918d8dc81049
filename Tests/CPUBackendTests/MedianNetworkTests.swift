import FilterCore
import TestSupport
import XCTest

/// The comparator networks both backends' medians run: wire count/2 ends holding what a sort puts in the middle.
final class MedianNetworkTests: XCTestCase {
    static func select(_ values: [Float], _ count: Int) -> Float {
        var wires = values + [Float](repeating: .infinity, count: MedianNetwork.size(count) - count)
        for (a, b) in MedianNetwork.pairs(count: count) where wires[b] < wires[a] { wires.swapAt(a, b) }
        return wires[count / 2]
    }

    /// Every input of zeros and ones (a network that selects correctly on all of them selects correctly on all
    /// inputs, the 0–1 principle): exhaustive for 9 values; 49 values sampled.
    func testNetworksSelectTheMedianOfEveryZeroOneInput() {
        for bits in 0..<(1 << 9) {
            let values = (0..<9).map { Float((bits >> $0) & 1) }
            XCTAssertEqual(Self.select(values, 9), values.sorted()[4], "\(values)")
        }
        var generator = SplitMix64(seed: 11)
        for count in [25, 49] {
            for _ in 0..<4000 {
                let values = (0..<count).map { _ in Float(generator.next() & 1) }
                XCTAssertEqual(Self.select(values, count), values.sorted()[count / 2])
            }
        }
    }

    /// No exchange touches the padding (it could not move a value), and the networks are the pruned sizes.
    func testNetworksLeaveThePaddingAlone() {
        for count in [25, 49] {
            XCTAssertTrue(MedianNetwork.pairs(count: count).allSatisfy { $0.1 < count })
        }
        XCTAssertEqual(MedianNetwork.pairs(count: 25).count, 113)
        XCTAssertEqual(MedianNetwork.pairs(count: 9).count, 19)
    }

    func testNetworksSelectTheMedianOfRandomValues() {
        var generator = SplitMix64(seed: 12)
        for count in [9, 25, 49] {
            for _ in 0..<2000 {
                let values = (0..<count).map { _ in Float(generator.next() % 1000) / 7 }
                XCTAssertEqual(Self.select(values, count), values.sorted()[count / 2])
            }
        }
    }
}
