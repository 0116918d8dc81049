/// Which engine renders: asked for as `auto`, `cpu` or `vulkan`; a report names the one that ran (`cpu` or `vulkan`).
public enum Backend: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    /// Vulkan when a usable device exists, otherwise the CPU (with a warning saying why).
    case auto
    case cpu
    case vulkan

    public var description: String { rawValue }
}
