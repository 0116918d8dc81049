import AsyncHTTPClient
import Crypto
import FilterRecipe
import Foundation
import NIOCore

/// Fetches sources from the configured HTTP(S) origins: a URL's source `@NAME/PATH…` is PATH under origin NAME's
/// base URL. Only named origins are reached, never a URL a request spells out; every address a host resolves to
/// must be public (`AddressPolicy`) unless private origins are allowed, and the connection goes to the address
/// that was checked (the name is pinned, so a second lookup cannot rebind it); redirects are followed by hand, at
/// most three, and only within the origin's base; the body is bounded while it streams.
struct OriginFetcher: Sendable {
    let origins: [String: URL]
    let allowPrivate: Bool
    let maxBytes: Int
    let timeout: TimeAmount
    static let maxRedirects = 3

    init(_ configuration: ServeConfiguration) throws {
        var origins = [String: URL]()
        for (name, text) in configuration.origins {
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
                  let url = URL(string: text.hasSuffix("/") ? text : text + "/"), ["http", "https"].contains(url.scheme?.lowercased()),
                  url.host?.isEmpty == false, url.query == nil, url.user == nil else {
                throw ServeError(.internalServerError, "origin \(name)=\(text): give NAME=http(s)://host/path/ (letters, digits, - and _ in the name)")
            }
            origins[name] = url
        }
        self.origins = origins
        allowPrivate = configuration.allowPrivateOrigins
        maxBytes = configuration.maxSourceBytes
        timeout = .seconds(Int64(configuration.originTimeoutSeconds))
    }

    /// The bytes at `path` under origin `name`, and a validator of them (their SHA-256) for the response's ETag.
    func fetch(origin name: String, path: [Substring]) async throws -> (data: Data, validator: String) {
        guard let base = origins[name] else { throw ServeError(.notFound, "no origin named \"\(name)\"") }
        guard !path.isEmpty, path.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") && !$0.contains("/") && !$0.contains("\\") }) else {
            throw ServeError(.notFound, "no source \"@\(name)/\(path.joined(separator: "/"))\"")
        }
        let encoded = path.map { $0.addingPercentEncoding(withAllowedCharacters: Self.segment) ?? "" }
        var url = URL(string: base.absoluteString + encoded.joined(separator: "/"))
        let deadline = ContinuousClock.now + .seconds(timeout.nanoseconds / 1_000_000_000)
        for hop in 0...Self.maxRedirects {
            // What is checked is what is asked for: the path's segments percent-decoded, then written again.
            guard let asked = url, let target = Self.canonical(asked, within: base), let host = target.host else {
                if hop == 0 { throw ServeError(.notFound, "no source \"@\(name)/\(path.joined(separator: "/"))\"") }
                throw ServeError(.badGateway, "origin \(name) redirected outside its base URL")
            }
            let address = try await vetted(host, origin: name)
            switch try await get(target, host: host, address: address, deadline: deadline, origin: name) {
            case .body(let data):
                let digest = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
                return (data, String(digest.prefix(32)))
            case .redirect(let location):
                url = URL(string: location, relativeTo: target)?.absoluteURL
            case .status(let code) where code == 404 || code == 410:
                throw ServeError(.notFound, "origin \(name) has no \"\(path.joined(separator: "/"))\" (\(code))")
            case .status(let code):
                throw ServeError(.badGateway, "origin \(name) answered \(code)")
            }
        }
        throw ServeError(.badGateway, "origin \(name) redirected more than \(Self.maxRedirects) times")
    }

    private enum Answer { case body(Data), redirect(String), status(Int) }

    /// One GET of `url`, connected to `address` (the checked address of `host`), over by `deadline` (the whole
    /// fetch's, redirects and a trickled body included: a read timeout alone lets a byte every few seconds go on).
    private func get(_ url: URL, host: String, address: String, deadline: ContinuousClock.Instant, origin name: String) async throws -> Answer {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow,
                                                     timeout: .init(connect: .seconds(5), read: timeout))
        configuration.dnsOverride = [host: address]
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let seconds = timeout.nanoseconds / 1_000_000_000
            let answer = try await Deadline.run(until: deadline, ServeError(.gatewayTimeout, "origin \(name) took longer than \(seconds) s")) {
                try await exchange(client, url)
            }
            try await client.shutdown()
            return answer
        } catch {
            try? await client.shutdown()
            if let served = error as? ServeError { throw served }
            if error is NIOTooManyBytesError {
                throw ServeError(.contentTooLarge, "the source is over \(maxBytes) bytes")
            }
            throw ServeError(.badGateway, "the origin could not be read: \(error)")
        }
    }

    private func exchange(_ client: HTTPClient, _ url: URL) async throws -> Answer {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: "filterserve/\(FilterRecipeVersion.current)")
        let response = try await client.execute(request, timeout: timeout)
        let code = Int(response.status.code)
        if [301, 302, 303, 307, 308].contains(code), let location = response.headers.first(name: "location") {
            return .redirect(location)
        }
        guard code == 200 else { return .status(code) }
        // A declared length over the limit is refused before any of the body is read.
        if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maxBytes {
            throw ServeError(.contentTooLarge, "the source is over \(maxBytes) bytes (\(length))")
        }
        return .body(Data(buffer: try await response.body.collect(upTo: maxBytes)))
    }

    /// The first address `host` resolves to, if every one it resolves to may be reached; else 403 (or 502 when it
    /// does not resolve). Resolved off the server's threads (getaddrinfo blocks).
    private func vetted(_ host: String, origin name: String) async throws -> String {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let addresses = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: AddressPolicy.resolve(bare)) }
        }
        guard let first = addresses.first else { throw ServeError(.badGateway, "origin \(name)'s host does not resolve") }
        if !allowPrivate, let blocked = addresses.first(where: { !AddressPolicy.isPublic($0.bytes) }) {
            throw ServeError(.forbidden, "origin \(name) resolves to a private or reserved address (\(blocked.text)); "
                             + "--allow-private-origins permits it")
        }
        return first.text
    }

    /// `url` written canonically (its path's segments percent-decoded, then encoded again) when it has `base`'s
    /// scheme, host and port, no user, and a path of segments under the base's path none of which decodes to empty,
    /// `.`, `..` or a name holding `/`, `\` or NUL; else nil. An origin's server decodes `%2e%2e` as `..`, so the
    /// check is on the decoded segments, and the URL asked for is the one checked.
    static func canonical(_ url: URL, within base: URL) -> URL? {
        guard url.scheme?.lowercased() == base.scheme?.lowercased(), url.host?.lowercased() == base.host?.lowercased(),
              (url.port ?? defaultPort(url)) == (base.port ?? defaultPort(base)), url.user == nil, url.password == nil,
              let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        let raw = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var segments = [String]()
        for part in raw {
            guard let decoded = part.removingPercentEncoding, !decoded.isEmpty, decoded != ".", decoded != "..",
                  !decoded.contains("/"), !decoded.contains("\\"), !decoded.contains("\0") else { return nil }
            segments.append(decoded)
        }
        let baseSegments = base.path.split(separator: "/").map(String.init)
        guard segments.count > baseSegments.count, Array(segments.prefix(baseSegments.count)) == baseSegments else { return nil }
        var rebuilt = URLComponents()
        rebuilt.scheme = components.scheme
        rebuilt.host = components.host
        rebuilt.port = components.port
        rebuilt.percentEncodedPath = "/" + segments.map { $0.addingPercentEncoding(withAllowedCharacters: segment) ?? "" }.joined(separator: "/")
        rebuilt.percentEncodedQuery = components.percentEncodedQuery
        return rebuilt.url
    }

    static func defaultPort(_ url: URL) -> Int { url.scheme?.lowercased() == "https" ? 443 : 80 }

    /// Characters a path segment keeps as they are.
    static let segment: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove("/")
        return set
    }()
}
