import FilterCore
import TestSupport
import XCTest

final class ConversionTests: XCTestCase {
    private func roundTrip(_ format: PixelFormat, _ samples: [Int], space: WorkingSpace) throws -> [Int] {
        let buffer = PixelBuffer(width: samples.count / format.channels, height: 1, format: format)
        let raw = try buffer.mutableHostBytes()
        for (i, v) in samples.enumerated() {
            if format.bytesPerSample == 1 { raw.storeBytes(of: UInt8(v), toByteOffset: i, as: UInt8.self) }
            else { raw.storeBytes(of: UInt16(v), toByteOffset: i * 2, as: UInt16.self) }
        }
        let back = try buffer.workingCopy(space: space).converted(to: format, space: space)
        let out = try back.hostBytes()
        return (0..<samples.count).map { PixelDigest.sample(out, back, 0, $0) / (format.bytesPerSample == 1 ? 257 : 1) }
    }

    func testEightBitSRGBRoundTripIsExact() throws {
        let values = Array(0..<256)
        XCTAssertEqual(try roundTrip(.grey8, values, space: .linear), values)
        let rgb = values.flatMap { [$0, 255 - $0, ($0 * 7) % 256] }
        XCTAssertEqual(try roundTrip(.rgb8, rgb, space: .linear), rgb)
        XCTAssertEqual(try roundTrip(.rgb8, rgb, space: .srgb), rgb)
    }

    func testSixteenBitSRGBRoundTripIsWithinOne() throws {
        let values = Array(0..<65536)
        let back = try roundTrip(.grey16, values, space: .linear)
        let worst = zip(values, back).map { abs($0 - $1) }.max()!
        XCTAssertLessThanOrEqual(worst, 1)
    }

    /// The table-driven transfer function agrees with the float64 formula.
    func testLookupTablesMatchFormula() {
        for code in stride(from: 0, to: 65536, by: 97) {
            XCTAssertEqual(Double(SRGB.decode16[code]), SRGB.toLinear(Double(code) / 65535), accuracy: 1e-6)
        }
        SRGB.encodeTable.withUnsafeBufferPointer { table in
            for i in 0...1000 {
                let x = Double(i) / 1000
                XCTAssertEqual(Double(SRGB.encode(Float(x), table: table.baseAddress!)), SRGB.toEncoded(x), accuracy: 2e-6)
            }
        }
    }

    /// The 8-bit encoding table, built from where the code steps, holds the formula's rounded code at every point.
    func testEightBitEncodingTableMatchesFormulaEverywhere() {
        var wrong = 0
        for i in 0...SRGB.encodeSteps {
            let code = UInt8((SRGB.toEncoded(Double(i) / Double(SRGB.encodeSteps)) * 255).rounded())
            if SRGB.encode8[i] != code { wrong += 1 }
        }
        XCTAssertEqual(SRGB.encode8.count, SRGB.encodeSteps + 1)
        XCTAssertEqual(wrong, 0)
    }

    /// Alpha survives (8 bit) and colour under non-zero alpha round trips through premultiplied working values.
    func testStraightAlphaRoundTripsThroughPremultipliedValues() throws {
        var samples = [Int]()
        for a in stride(from: 1, to: 256, by: 2) { samples += [a, 255 - a, 128, a] }
        let back = try roundTrip(.rgba8, samples, space: .srgb)
        for i in stride(from: 0, to: samples.count, by: 4) {
            XCTAssertEqual(back[i + 3], samples[i + 3])
            for c in 0..<3 {
                // Premultiplying in float32 and dividing back is exact to well under half a code.
                XCTAssertEqual(back[i + c], samples[i + c], "alpha \(samples[i + 3])")
            }
        }
    }

    func testPremultiplyThenUnpremultiplyIsIdentityForVisiblePixels() throws {
        let buffer = PixelBuffer(width: 256, height: 3, format: .rgba32f)
        let raw = try buffer.mutableHostBytes().assumingMemoryBound(to: Float.self)
        var generator = SplitMix64(seed: 1)
        for i in 0..<(256 * 3) {
            let a = Float(i % 256 + 1) / 256
            for c in 0..<3 { raw[i * 4 + c] = Float(generator.next() % 1000) / 999 }
            raw[i * 4 + 3] = a
        }
        let before = Array(UnsafeBufferPointer(start: raw, count: 256 * 3 * 4))
        try buffer.premultiply()
        try buffer.unpremultiply()
        let after = try buffer.hostBytes().assumingMemoryBound(to: Float.self)
        for i in 0..<before.count { XCTAssertEqual(after[i], before[i], accuracy: 1e-6) }
    }
}
