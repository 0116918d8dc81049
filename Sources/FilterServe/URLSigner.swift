import Foundation

/// Signs and checks render URLs: HMAC-SHA256 over the canonical payload (`PRESET/SOURCE`, then `?format=F` when the
/// URL names a format), written base64url without padding. Every configured key is tried, so keys rotate without
/// breaking URLs signed with the previous one; the comparison is constant-time (libcrypto's, `Digests`).
public struct URLSigner: Sendable {
    private let keys: [[UInt8]]

    public init(secrets: [String]) {
        keys = secrets.map { Array($0.utf8) }
    }

    /// What a URL signs.
    public static func payload(preset: String, source: String, format: String?) -> String {
        payload(preset: preset, source: source, options: RenderURLOptions(format: format))
    }

    /// What a render URL with options signs: the preset, the source as spelled, and the options' query in their
    /// signed order (`RenderURLOptions.query`).
    public static func payload(preset: String, source: String, options: RenderURLOptions) -> String {
        "\(preset)/\(source)" + options.query
    }

    /// What a signed recipe signs: its canonical JSON (`Recipe.jsonData()`).
    public static func recipePayload(_ canonicalJSON: String) -> String { "recipe:" + canonicalJSON }

    /// The signature of `payload` with the first (newest) key.
    public func signature(for payload: String) -> String? {
        guard let key = keys.first else { return nil }
        return Self.base64url(Data(Digests.hmacSHA256(key: key, message: payload.utf8)))
    }

    /// Whether `signature` signs `payload` with any key. Only the canonical spelling is accepted — 43 characters of
    /// base64url, no padding, the last one's unused bits zero — so one signature has one URL (no variants for a
    /// cache or a log to tell apart).
    public func verify(_ signature: String, payload: String) -> Bool {
        guard signature.utf8.count == 43, let code = Self.decode(signature), code.count == 32,
              Self.base64url(code) == signature else { return false }
        let given = Array(code)
        return keys.contains { Digests.equalInConstantTime(Digests.hmacSHA256(key: $0, message: payload.utf8), given) }
    }

    /// The path of a signed render URL (the part after the host).
    public func path(preset: String, source: String, format: String?) -> String? {
        path(preset: preset, source: source, options: RenderURLOptions(format: format))
    }

    /// The signed path of a render URL with options (size, fit, quality, format).
    public func path(preset: String, source: String, options: RenderURLOptions) -> String? {
        guard let signature = signature(for: Self.payload(preset: preset, source: source, options: options)) else { return nil }
        return "/r/\(signature)/\(preset)/\(source)" + options.query
    }

    static func base64url(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
