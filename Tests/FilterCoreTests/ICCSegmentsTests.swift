import FilterCore
import Foundation
import TestSupport
import XCTest

/// ICC profiles split over JPEG APP2 segments: every shape the reliability review tried — in order or not, a
/// piece missing, duplicated (equal or different), counts that disagree, sequence 0, count 0, pieces that overlap —
/// is reassembled when unambiguous and dropped with a reason otherwise.
final class ICCSegmentsTests: XCTestCase {
    let profile = try! Array(Data(contentsOf: URL(fileURLWithPath: Fixtures.path("jpeg/compatibleWithAdobeRGB1998.icc"))))

    func segment(_ number: Int, of count: Int, _ piece: ArraySlice<UInt8>) -> [UInt8] {
        ICCSegments.signature + [UInt8(number), UInt8(count)] + piece
    }

    var thirds: [ArraySlice<UInt8>] {
        let a = profile.count / 3, b = 2 * profile.count / 3
        return [profile[0..<a], profile[a..<b], profile[b...]]
    }

    func testInOrderOutOfOrderAndAmongOtherAPP2Segments() {
        let p = thirds
        let flashpix = Array("FPXR".utf8) + [0, 1, 2, 3]
        for order in [[0, 1, 2], [2, 0, 1], [1, 2, 0]] {
            let (found, problems) = ICCSegments.assemble([flashpix] + order.map { segment($0 + 1, of: 3, p[$0]) })
            XCTAssertEqual(found, profile)
            XCTAssertEqual(problems, [])
        }
    }

    func testUnambiguousIrregularitiesAreReassembledWithAWarning() {
        let p = thirds
        // An exact duplicate.
        var (found, problems) = ICCSegments.assemble([segment(1, of: 3, p[0]), segment(2, of: 3, p[1]), segment(2, of: 3, p[1]),
                                                      segment(3, of: 3, p[2])])
        XCTAssertEqual(found, profile)
        XCTAssertTrue(problems.first?.contains("appears twice") == true, "\(problems)")
        // Counts that disagree, the pieces complete by the profile's declared size.
        (found, problems) = ICCSegments.assemble([segment(1, of: 3, p[0]), segment(2, of: 4, p[1]), segment(3, of: 3, p[2])])
        XCTAssertEqual(found, profile)
        XCTAssertTrue(problems.first?.contains("disagree on their count") == true, "\(problems)")
        // A stray segment numbered 0 (or with count 0) beside a complete profile.
        (found, problems) = ICCSegments.assemble([segment(0, of: 3, p[0]), segment(1, of: 2, profile[0..<300]),
                                                  segment(2, of: 2, profile[300...]), segment(1, of: 0, p[1])])
        XCTAssertEqual(found, profile)
        XCTAssertEqual(problems.count, 2, "\(problems)")
    }

    func testAmbiguousOrIncompleteProfilesAreDroppedWithTheReason() {
        let p = thirds
        let cases: [([[UInt8]], String)] = [
            ([segment(1, of: 3, p[0]), segment(3, of: 3, p[2])], "segment 2 of 3 is missing"),
            ([segment(1, of: 3, p[0]), segment(2, of: 3, p[1])], "segments 3…3 of 3 are missing"),
            ([segment(1, of: 3, p[0]), segment(2, of: 3, p[1]), segment(2, of: 3, p[2]), segment(3, of: 3, p[2])],
             "same number"),
            ([segment(0, of: 1, profile[...])], "no usable ICC profile remains"),
            ([segment(1, of: 0, profile[...])], "no usable ICC profile remains"),
            // Overlapping pieces: the second repeats the end of the first.
            ([segment(1, of: 2, profile[0..<400]), segment(2, of: 2, profile[300...])], "add up to"),
            ([segment(2, of: 2, p[1])], "segment 1 of 2 is missing"),
        ]
        for (segments, reason) in cases {
            let (found, problems) = ICCSegments.assemble(segments)
            XCTAssertNil(found, reason)
            XCTAssertTrue(problems.last?.contains(reason) == true, "\(reason): \(problems)")
        }
        XCTAssertTrue(ICCSegments.assemble([]) == (nil, []))
    }

    func testFileTextEscapesWhatCouldForgeOutput() {
        XCTAssertEqual(FileText.escaped("sRGB\u{1B}[2K\rfilterrun: 0 failed\n"), "sRGB\\x1B[2K\\rfilterrun: 0 failed\\n")
        XCTAssertEqual(FileText.escaped("a\u{202E}b\u{7F}c\u{85}"), "a\\u{202E}b\\x7Fc\\u{0085}")
        XCTAssertEqual(FileText.escaped("Adobe RGB (1998) · ü"), "Adobe RGB (1998) · ü")
    }
}
