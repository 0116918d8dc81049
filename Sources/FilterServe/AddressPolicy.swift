import Foundation

/// Which addresses an origin fetch may connect to: by default only public ones, so a source URL can never make the
/// server reach its own loopback, the cloud metadata service (169.254.169.254), a private network or a multicast
/// group (server-side request forgery). Ranges from IANA's special-purpose address registries (RFC 6890 and its
/// updates); IPv4 embedded in IPv6 (mapped, NAT64, 6to4) is judged as the IPv4 address it carries.
enum AddressPolicy {
    /// An address as its bytes: 4 for IPv4, 16 for IPv6.
    static func isPublic(_ bytes: [UInt8]) -> Bool {
        if bytes.count == 4 { return isPublicV4(bytes) }
        guard bytes.count == 16 else { return false }
        let b = bytes
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF { return isPublicV4(Array(b[12..<16])) }  // ::ffff:a.b.c.d
        if b[0..<12].allSatisfy({ $0 == 0 }) { return false }  // ::, ::1 and the deprecated IPv4-compatible form
        if b[0] == 0x00, b[1] == 0x64, b[2] == 0xFF, b[3] == 0x9B, b[4..<12].allSatisfy({ $0 == 0 }) {
            return isPublicV4(Array(b[12..<16]))  // 64:ff9b::/96 NAT64
        }
        if b[0] == 0x20, b[1] == 0x02 { return isPublicV4(Array(b[2..<6])) }  // 2002::/16 6to4
        if b[0] & 0xFE == 0xFC { return false }  // fc00::/7 unique local
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return false }  // fe80::/10 link-local
        if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return false }  // fec0::/10 site-local (deprecated)
        if b[0] == 0xFF { return false }  // ff00::/8 multicast
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0D, b[3] == 0xB8 { return false }  // 2001:db8::/32 documentation
        if b[0] == 0x01, b[1..<8].allSatisfy({ $0 == 0 }) { return false }  // 100::/64 discard
        return true
    }

    static func isPublicV4(_ a: [UInt8]) -> Bool {
        switch (a[0], a[1]) {
        case (0, _), (10, _), (127, _): return false  // this network, private, loopback
        case (100, 64...127): return false  // shared address space (carrier-grade NAT)
        case (169, 254): return false  // link-local, the cloud metadata service among them
        case (172, 16...31), (192, 168): return false  // private
        case (192, 0) where a[2] == 0 || a[2] == 2: return false  // IETF protocol assignments, documentation
        case (198, 18...19): return false  // benchmarking
        case (198, 51) where a[2] == 100, (203, 0) where a[2] == 113: return false  // documentation
        case (224...255, _): return false  // multicast, reserved, broadcast
        default: return true
        }
    }

    /// The addresses `host` resolves to (TCP), as bytes and as text; empty when it does not resolve. Blocking: call
    /// it off the server's threads.
    static func resolve(_ host: String) -> [(bytes: [UInt8], text: String)] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var found: [(bytes: [UInt8], text: String)] = []
        var entry = list
        while let info = entry?.pointee {
            defer { entry = info.ai_next }
            guard let address = info.ai_addr else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            if info.ai_family == AF_INET {
                var v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                let bytes = withUnsafeBytes(of: &v4) { Array($0) }
                inet_ntop(AF_INET, &v4, &text, socklen_t(text.count))
                found.append((bytes, String(cString: text)))
            } else if info.ai_family == AF_INET6 {
                var v6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                let bytes = withUnsafeBytes(of: &v6) { Array($0) }
                inet_ntop(AF_INET6, &v6, &text, socklen_t(text.count))
                found.append((bytes, String(cString: text)))
            }
        }
        return found
    }
}
