import COriginFetch
import FilterCore
import FilterRecipe
import Foundation
import Synchronization

/// Fetches sources from the configured HTTP(S) origins: a URL's source `@NAME/PATH…` is PATH under origin NAME's
/// base URL. Only named origins are reached, never a URL a request spells out; every address a host resolves to
/// must be public (`AddressPolicy`) unless private origins are allowed, and the connection goes to the address
/// that was checked (the name is pinned, so a second lookup cannot rebind it); redirects are followed by hand, at
/// most three, and only within the origin's base; the body is bounded while it streams. The exchange itself is
/// libcurl's (`COriginFetch`), and like the lookup it blocks its thread: both run on `threads`, never the server's.
struct OriginFetcher: Sendable {
    let origins: [String: URL]
    let allowPrivate: Bool
    let maxBytes: Int
    let timeout: Duration
    static let maxRedirects = 3
    /// The threads lookups and transfers block: at most 32 at once, kept. Past that a fetch waits its turn, its
    /// deadline running, so a flood of slow origins holds 32 threads rather than one a request.
    static let threads = KeptThreads(name: "filterserve origin", limit: 32)

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
        timeout = .seconds(configuration.originTimeoutSeconds)
    }

    /// The bytes at `path` under origin `name`, and a validator of them (their SHA-256) for the response's ETag.
    func fetch(origin name: String, path: [Substring]) async throws -> (data: Data, validator: String) {
        guard let base = origins[name] else { throw ServeError(.notFound, "no origin named \"\(name)\"") }
        guard !path.isEmpty, path.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") && !$0.contains("/") && !$0.contains("\\") }) else {
            throw ServeError(.notFound, "no source \"@\(name)/\(path.joined(separator: "/"))\"")
        }
        let encoded = path.map { $0.addingPercentEncoding(withAllowedCharacters: Self.segment) ?? "" }
        var url = URL(string: base.absoluteString + encoded.joined(separator: "/"))
        let deadline = ContinuousClock.now + timeout
        for hop in 0...Self.maxRedirects {
            // What is checked is what is asked for: the path's segments percent-decoded, then written again.
            guard let asked = url, let target = Self.canonical(asked, within: base), let host = target.host else {
                if hop == 0 { throw ServeError(.notFound, "no source \"@\(name)/\(path.joined(separator: "/"))\"") }
                throw ServeError(.badGateway, "origin \(name) redirected outside its base URL")
            }
            let address = try await vetted(host, origin: name)
            switch try await get(target, host: host, address: address, deadline: deadline, origin: name) {
            case .body(let data):
                return (data, String(Digests.hex(Digests.sha256(data)).prefix(32)))
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

    enum Answer { case body(Data), redirect(String), status(Int) }

    /// One GET of `url`, connected to `address` (the checked address of `host`), over by `deadline` (the whole
    /// fetch's, redirects and a trickled body included: a read timeout alone lets a byte every few seconds go on).
    /// A cancelled request (its client hung up) stops the transfer.
    func get(_ url: URL, host: String, address: String, deadline: ContinuousClock.Instant, origin name: String) async throws -> Answer {
        let late = ServeError(.gatewayTimeout, "origin \(name) took longer than \(timeout.components.seconds) s")
        let port = url.port ?? Self.defaultPort(url)
        // A literal address has no lookup to pin (an IPv6 one holds colons, which no name does); a name is pinned
        // to the address that was checked.
        let literal = host.contains(":") || host.hasPrefix("[") || host.allSatisfy { $0.isNumber || $0 == "." }
        let pin = literal ? nil : "\(host):\(port):" + (address.contains(":") ? "[\(address)]" : address)
        let transfer = OriginTransfer()
        let agent = "filterserve/\(FilterRecipeVersion.current)"
        let limit = maxBytes
        let (outcome, answer) = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Self.threads.run {
                    continuation.resume(returning: transfer.run(url.absoluteString, pin: pin, agent: agent,
                                                                deadline: deadline, limit: limit))
                }
            }
        } onCancel: {
            transfer.cancel()
        }
        switch outcome {
        case ORIGIN_FETCH_ANSWERED: break
        case ORIGIN_FETCH_TIMED_OUT: throw late
        case ORIGIN_FETCH_CANCELLED: throw CancellationError()
        default: throw ServeError(.badGateway, "the origin could not be read: \(answer.message)")
        }
        if answer.overLimit {
            let declared = answer.declaredLength > maxBytes ? " (\(answer.declaredLength))" : ""
            throw ServeError(.contentTooLarge, "the source is over \(maxBytes) bytes\(declared)")
        }
        if [301, 302, 303, 307, 308].contains(answer.status), !answer.location.isEmpty { return .redirect(answer.location) }
        guard answer.status == 200 else { return .status(answer.status) }
        return .body(transfer.body)
    }

    /// The first address `host` resolves to, if every one it resolves to may be reached; else 403 (or 502 when it
    /// does not resolve). Resolved off the server's threads (getaddrinfo blocks).
    private func vetted(_ host: String, origin name: String) async throws -> String {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let addresses = await withCheckedContinuation { continuation in
            Self.threads.run { continuation.resume(returning: AddressPolicy.resolve(bare)) }
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

/// One libcurl transfer's state, shared with its C callbacks: the body as it streams and whether it is still wanted.
private final class OriginTransfer: @unchecked Sendable {
    /// Written by the transfer's thread only, read after it returns.
    private(set) var body = Data()
    private let cancelled = Atomic<Bool>(false)

    struct Answer {
        var status = 0
        var declaredLength = -1
        var overLimit = false
        var location = ""
        var message = ""
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Runs the transfer on the calling thread (it blocks until the answer, the limit or the deadline); one that
    /// waited for its thread past the deadline, or was cancelled meanwhile, does not start.
    func run(_ url: String, pin: String?, agent: String, deadline: ContinuousClock.Instant, limit: Int) -> (origin_fetch_outcome, Answer) {
        let left = deadline - .now
        if cancelled.load(ordering: .relaxed) { return (ORIGIN_FETCH_CANCELLED, Answer()) }
        guard left > .zero else { return (ORIGIN_FETCH_TIMED_OUT, Answer()) }
        let milliseconds = Int(left / .milliseconds(1)) + 1
        var raw = origin_fetch_answer()
        let context = Unmanaged.passUnretained(self).toOpaque()
        let onBody: origin_fetch_body = { context, bytes, count in
            let transfer = Unmanaged<OriginTransfer>.fromOpaque(context!).takeUnretainedValue()
            if let bytes, count > 0 { transfer.body.append(bytes, count: count) }
            return 0
        }
        let isCancelled: origin_fetch_cancelled = { context in
            Unmanaged<OriginTransfer>.fromOpaque(context!).takeUnretainedValue().cancelled.load(ordering: .relaxed) ? 1 : 0
        }
        let outcome = withExtendedLifetime(self) {
            origin_fetch_get(url, pin, agent, milliseconds, min(5_000, milliseconds), Int64(limit), onBody, isCancelled, context, &raw)
        }
        var answer = Answer()
        answer.status = raw.status
        answer.declaredLength = Int(raw.declared_length)
        answer.overLimit = raw.over_limit != 0
        answer.location = Self.text(&raw.location)
        answer.message = Self.text(&raw.message)
        return (outcome, answer)
    }

    /// A NUL-terminated C array as text.
    private static func text<T>(_ field: inout T) -> String {
        withUnsafeBytes(of: &field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
