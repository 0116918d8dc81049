/// Limits checked before a recipe is decoded or lowered, so a hostile recipe is refused with a clear error rather
/// than exhausting memory or time.
public struct RecipeLimits: Sendable {
    /// Largest recipe file accepted (default 1 MiB).
    public var maxBytes: Int
    /// Most steps or nodes accepted (default 1000).
    public var maxNodes: Int

    public init(maxBytes: Int = 1 << 20, maxNodes: Int = 1000) {
        self.maxBytes = maxBytes
        self.maxNodes = maxNodes
    }

    public static let `default` = RecipeLimits()
}
