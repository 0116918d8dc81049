@testable import FilterServe
import Foundation
import XCTest

/// The service's digests against their published test vectors: SHA-256 from FIPS 180-2's examples, HMAC-SHA256
/// from RFC 4231 (section 4), and a signed URL checked only with the exact code.
final class DigestsTests: XCTestCase {
    func bytes(_ hex: String) -> [UInt8] {
        var result = [UInt8]()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    func testSHA256MatchesFIPS180() {
        XCTAssertEqual(Digests.sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(Digests.sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(Digests.sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testHMACSHA256MatchesRFC4231() {
        let cases: [(key: [UInt8], data: [UInt8], mac: String)] = [
            ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
             "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
             "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
            // A key longer than SHA-256's block is hashed first.
            ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
             "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        ]
        for (number, test) in cases.enumerated() {
            XCTAssertEqual(Digests.hex(Digests.hmacSHA256(key: test.key, message: test.data)), test.mac, "case \(number + 1)")
        }
    }

    func testComparisonNeedsEveryByte() {
        let code = bytes("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        XCTAssertTrue(Digests.equalInConstantTime(code, code))
        for index in [0, 17, 31] {
            var changed = code
            changed[index] ^= 1
            XCTAssertFalse(Digests.equalInConstantTime(code, changed), "byte \(index)")
        }
        XCTAssertFalse(Digests.equalInConstantTime(code, Array(code.prefix(31))), "a shorter code")
    }

    func testSignedURLsUseHMACSHA256OfTheirPayload() {
        let signer = URLSigner(secrets: ["Jefe"])
        let payload = URLSigner.payload(preset: "vintage", source: "chelsea.png", format: nil)
        XCTAssertEqual(payload, "vintage/chelsea.png")
        // Python's hmac module: base64.urlsafe_b64encode(hmac.new(b"Jefe", b"vintage/chelsea.png", "sha256")
        // .digest()), without its padding.
        let expected = "wgqeWJCb-R4Af4wb_1lay80T5mew-CrrRTHTEfualQs"
        XCTAssertEqual(signer.signature(for: payload), expected)
        XCTAssertTrue(signer.verify(expected, payload: payload))
        XCTAssertFalse(signer.verify(expected, payload: payload + "x"))
        XCTAssertFalse(URLSigner(secrets: ["jefe"]).verify(expected, payload: payload), "another key")
        XCTAssertTrue(URLSigner(secrets: ["newer", "Jefe"]).verify(expected, payload: payload), "an older key still checks")
    }
}
