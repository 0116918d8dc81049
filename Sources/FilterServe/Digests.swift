import CLibCrypto
import Foundation

/// SHA-256 and HMAC-SHA256 from the system's libcrypto (OpenSSL): the service's ETags, cache entry names and source
/// validators, and its signed URLs.
enum Digests {
    /// The SHA-256 of `bytes`, read in place (a fetched source of many megabytes is not copied).
    static func sha256(_ bytes: some ContiguousBytes) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(done == 1 && length == 32, "libcrypto's SHA-256 failed")
        return Array(digest.prefix(32))
    }

    /// The SHA-256 of `text`'s UTF-8, in lowercase hexadecimal.
    static func sha256Hex(_ text: String) -> String { hex(sha256(Array(text.utf8))) }

    /// The HMAC-SHA256 of `message` under `key` (RFC 2104).
    static func hmacSHA256(key: [UInt8], message: some Collection<UInt8>) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let message = Array(message)
        let done = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { input in
                // A zero-length key still needs a non-null pointer.
                HMAC(EVP_sha256(), keyBytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(keyBytes.count),
                     input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count, &code, &length)
            }
        }
        precondition(done != nil && length == 32, "libcrypto's HMAC-SHA256 failed")
        return Array(code.prefix(32))
    }

    /// Whether `a` and `b` are equal, in a time that depends on their length only (libcrypto's CRYPTO_memcmp).
    static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 } }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes { text.append(digits[Int(byte >> 4)]); text.append(digits[Int(byte & 15)]) }
        return String(decoding: text, as: UTF8.self)
    }
}
